import Foundation
import Testing
@testable import SelectLogStore

/// A replay and `verify` decode on other threads only when the process may run on a
/// second core (`Cores.usable`): online cores, less those its affinity mask or its
/// cgroup's CPU quota take away.
@Suite("Cores this process may use")
struct CoresTests {
    @Test("The affinity mask of /proc/PID/status is counted")
    func affinityMask() {
        #expect(Cores.inAffinityMask(ofStatus: "Name:\tx\nCpus_allowed:\t3\nCpus_allowed_list:\t0-1\n") == 2)
        #expect(Cores.inAffinityMask(ofStatus: "Cpus_allowed:\t2\n") == 1)
        #expect(Cores.inAffinityMask(ofStatus: "Cpus_allowed:\tff,ffffffff\n") == 40)
        #expect(Cores.inAffinityMask(ofStatus: "Cpus_allowed:\t00000000,00000100\n") == 1)
        // No line, an empty mask, no core, or not hexadecimal: no answer.
        #expect(Cores.inAffinityMask(ofStatus: "Name:\tx\n") == nil)
        #expect(Cores.inAffinityMask(ofStatus: "Cpus_allowed:\t\n") == nil)
        #expect(Cores.inAffinityMask(ofStatus: "Cpus_allowed:\t0\n") == nil)
        #expect(Cores.inAffinityMask(ofStatus: "Cpus_allowed:\t0-1\n") == nil)
    }

    @Test("A cgroup's CPU quota is rounded up to whole cores")
    func quota() {
        #expect(Cores.inQuota(cpuMax: "100000 100000\n") == 1)
        #expect(Cores.inQuota(cpuMax: "150000 100000\n") == 2)
        #expect(Cores.inQuota(cpuMax: "50000 100000") == 1)
        #expect(Cores.inQuota(cpuMax: "400000 100000\n") == 4)
        // No quota (v2 `max`, v1 `-1`), or not a quota.
        #expect(Cores.inQuota(cpuMax: "max 100000\n") == nil)
        #expect(Cores.inQuota(cpuMax: "-1 100000") == nil)
        #expect(Cores.inQuota(cpuMax: "100000") == nil)
        #expect(Cores.inQuota(cpuMax: "100000 0") == nil)
    }

    @Test("the quota of the process's cgroup and of every cgroup above it is read, v2 and v1")
    func quotaDirectories() {
        let v2 = Cores.quotaDirectories(ofCgroups: "0::/system.slice/app.service\n")
        #expect(v2.map(\.directory) == ["/sys/fs/cgroup/system.slice/app.service", "/sys/fs/cgroup/system.slice", "/sys/fs/cgroup"])
        #expect(v2.allSatisfy { $0.v2 })
        let v1 = Cores.quotaDirectories(ofCgroups: "4:memory:/x\n2:cpu,cpuacct:/docker/abc\n0::/\n")
        #expect(v1.map(\.directory) == ["/sys/fs/cgroup/cpu/docker/abc", "/sys/fs/cgroup/cpu/docker", "/sys/fs/cgroup/cpu", "/sys/fs/cgroup"])
        #expect(v1.map(\.v2) == [false, false, false, true])
        // A namespace's root, or nothing readable: the roots.
        #expect(Cores.quotaDirectories(ofCgroups: "0::/\n").map(\.directory) == ["/sys/fs/cgroup"])
        #expect(Cores.quotaDirectories(ofCgroups: "").map(\.directory) == ["/sys/fs/cgroup", "/sys/fs/cgroup/cpu"])
        // A path never climbs out of the hierarchy.
        #expect(Cores.quotaDirectories(ofCgroups: "0::/../../etc\n").map(\.directory) == ["/sys/fs/cgroup/etc", "/sys/fs/cgroup"])
    }

    #if os(Linux)
    /// The kernel's own format: a process that `taskset` holds to one core says so.
    @Test("A process held to one core by taskset has one")
    func tasksetOneCore() throws {
        let taskset = ["/usr/bin/taskset", "/bin/taskset"].first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let taskset else { return }
        // The first core this process may run on, not core 0: a container or a CI runner
        // can be held to cores that leave 0 out, where `taskset -c 0` fails.
        let status = try String(contentsOfFile: "/proc/self/status", encoding: .utf8)
        let allowed = status.split(separator: "\n").first { $0.hasPrefix("Cpus_allowed_list:") }
        let first = allowed.flatMap { line in
            Int(line.dropFirst("Cpus_allowed_list:".count).trimmingCharacters(in: .whitespaces).prefix { $0.isNumber })
        }
        let core = try #require(first, "no core in /proc/self/status: \(allowed ?? "no Cpus_allowed_list")")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: taskset)
        process.arguments = ["-c", "\(core)", "cat", "/proc/self/status"]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0)
        #expect(Cores.inAffinityMask(ofStatus: String(decoding: data, as: UTF8.self)) == 1)
        // And this process's own count is within what is online.
        #expect(Cores.usable >= 1 && Cores.usable <= ProcessInfo.processInfo.activeProcessorCount)
    }
    #endif
}
