import Foundation

/// How many cores this process may run on: what decides whether a replay or a `verify`
/// decodes on other threads beside the caller's.
///
/// `ProcessInfo.activeProcessorCount` counts the cores that are online. On Linux a
/// process can be held to fewer: by its affinity mask (`taskset`, a container's cpuset)
/// or by a cgroup's CPU quota (`docker --cpus`). There, five threads on one core cost
/// more than one thread alone (the hand-overs and the switches between them), so the
/// count is the least of the three.
enum Cores {
    /// The cores this process may use, at least 1.
    static let usable: Int = {
        var count = ProcessInfo.processInfo.activeProcessorCount
        #if os(Linux)
        if let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
           let allowed = inAffinityMask(ofStatus: status) {
            count = Swift.min(count, allowed)
        }
        // The process's own cgroup and every one above it: a quota anywhere applies.
        let membership = (try? String(contentsOfFile: "/proc/self/cgroup", encoding: .utf8)) ?? ""
        for (directory, v2) in quotaDirectories(ofCgroups: membership) {
            let text: String?
            if v2 {
                text = try? String(contentsOfFile: directory + "/cpu.max", encoding: .utf8)
            } else if let quota = try? String(contentsOfFile: directory + "/cpu.cfs_quota_us", encoding: .utf8),
                      let period = try? String(contentsOfFile: directory + "/cpu.cfs_period_us", encoding: .utf8) {
                text = quota + " " + period
            } else {
                text = nil
            }
            if let text, let cores = inQuota(cpuMax: text) { count = Swift.min(count, cores) }
        }
        #endif
        return Swift.max(1, count)
    }()

    /// The cores in the `Cpus_allowed:` line of a `/proc/PID/status` (a hexadecimal mask
    /// in groups of eight digits separated by commas, `ff,ffffffff`); nil without one,
    /// or when it is not such a mask.
    static func inAffinityMask(ofStatus status: String) -> Int? {
        for line in status.split(separator: "\n") where line.hasPrefix("Cpus_allowed:") {
            let mask = line.dropFirst("Cpus_allowed:".count).filter { $0 != " " && $0 != "\t" && $0 != "," }
            guard !mask.isEmpty else { return nil }
            var count = 0
            for digit in mask {
                guard let value = digit.hexDigitValue else { return nil }
                count += value.nonzeroBitCount
            }
            return count > 0 ? count : nil
        }
        return nil
    }

    /// The directories whose CPU quota applies to a process, given its `/proc/PID/cgroup`
    /// (lines `ID:CONTROLLERS:PATH`): for cgroup v2 (`0::/a/b`), `/sys/fs/cgroup/a/b`, then
    /// `/sys/fs/cgroup/a` and `/sys/fs/cgroup` (each with a `cpu.max`); for v1's `cpu`
    /// controller, the same under `/sys/fs/cgroup/cpu` (each with a quota and a period).
    /// The root alone when the file says nothing (a cgroup namespace shows `/`).
    static func quotaDirectories(ofCgroups text: String) -> [(directory: String, v2: Bool)] {
        var out: [(directory: String, v2: Bool)] = []
        func chain(_ base: String, _ path: Substring, v2: Bool) {
            var parts = path.split(separator: "/").filter { $0 != ".." && $0 != "." }.map(String.init)
            while true {
                out.append((([base] + parts).joined(separator: "/"), v2))
                if parts.isEmpty { break }
                parts.removeLast()
            }
        }
        for line in text.split(separator: "\n") {
            let fields = line.split(separator: ":", maxSplits: 2, omittingEmptySubsequences: false)
            guard fields.count == 3 else { continue }
            if fields[0] == "0", fields[1].isEmpty {
                chain("/sys/fs/cgroup", fields[2], v2: true)
            } else if fields[1].split(separator: ",").contains("cpu") {
                chain("/sys/fs/cgroup/cpu", fields[2], v2: false)
            }
        }
        if out.isEmpty { out = [("/sys/fs/cgroup", true), ("/sys/fs/cgroup/cpu", false)] }
        return out
    }

    /// The cores a cgroup's CPU quota allows, rounded up (`150000 100000`: 2): the
    /// contents of cgroup v2's `cpu.max` (`QUOTA PERIOD`, `max` for none), or of v1's
    /// quota and period files joined by a space (`-1` for none). Nil when there is no
    /// quota, or the text is not one.
    static func inQuota(cpuMax: String) -> Int? {
        let fields = cpuMax.split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" })
        guard fields.count == 2, let quota = Int(fields[0]), let period = Int(fields[1]),
              quota > 0, period > 0 else { return nil }
        return quota / period + (quota % period == 0 ? 0 : 1)
    }
}
