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
        if let cpuMax = try? String(contentsOfFile: "/sys/fs/cgroup/cpu.max", encoding: .utf8),
           let quota = inQuota(cpuMax: cpuMax) {
            count = Swift.min(count, quota)
        } else if let quota = try? String(contentsOfFile: "/sys/fs/cgroup/cpu/cpu.cfs_quota_us", encoding: .utf8),
                  let period = try? String(contentsOfFile: "/sys/fs/cgroup/cpu/cpu.cfs_period_us", encoding: .utf8),
                  let cores = inQuota(cpuMax: quota + " " + period) {
            count = Swift.min(count, cores)
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
