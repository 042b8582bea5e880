#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import SelectLog

extension Recorder {
    /// Removes what creations killed in their first milliseconds left in `directory`.
    ///
    /// `init(creating:options:replacingExisting:)` makes a log whole or not at all: it
    /// writes and syncs the header in `LOG.creating-PID` beside it, links that into place
    /// and removes it. A process killed in between (an app the system kills at launch)
    /// leaves those 40 bytes, and nothing else would ever remove them: an app killed that
    /// way at each launch collects one a launch. Call this at launch, before creating logs
    /// in `directory`. It removes a regular file named so only when its process ID is no
    /// living process's (`kill(pid, 0)` says there is none) and it was last changed over a
    /// minute ago (a creation takes milliseconds; another process, an app extension's in a
    /// shared container, may be making one, and one in another PID namespace cannot be
    /// seen). Nothing else in the directory is touched.
    ///
    /// - Parameter directory: The directory the logs are created in.
    /// - Returns: The names of the files removed.
    /// - Throws: `.io` when the directory cannot be listed.
    @discardableResult
    public static func removeAbandonedCreations(in directory: String) throws(LogError) -> [String] {
        try FileIO.checkPath(directory)
        guard let listing = opendir(directory) else { throw FileIO.error("opendir", directory) }
        defer { closedir(listing) }
        var names: [String] = []
        while let entry = readdir(listing) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            names.append(name)
        }
        let now = time(nil)
        var removed: [String] = []
        for name in names {
            guard let pid = abandonedCreator(of: name), pid != getpid() else { continue }
            // `kill(pid, 0)`: 0 or EPERM, a process that lives; ESRCH, none.
            guard kill(pid, 0) != 0, errno == ESRCH else { continue }
            let path = directory.hasSuffix("/") ? directory + name : directory + "/" + name
            var info = stat()
            guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFREG,
                  Int64(now) - modified(info) > abandonedAfterSeconds else { continue }
            if unlink(path) == 0 { removed.append(name) }
        }
        return removed
    }

    /// When the file `info` describes was last changed, in seconds since 1970.
    private static func modified(_ info: stat) -> Int64 {
        #if canImport(Darwin)
        Int64(info.st_mtimespec.tv_sec)
        #else
        Int64(info.st_mtim.tv_sec)
        #endif
    }

    /// How old a staged creation must be to be taken for abandoned.
    static let abandonedAfterSeconds: Int64 = 60

    /// The process ID in `name` when it is a staged creation's (`LogFile.stagingPath(for:)`:
    /// a log's name, then `.creating-` and digits), or nil.
    static func abandonedCreator(of name: String) -> pid_t? {
        let bytes = Array(name.utf8), marker = Array(".creating-".utf8)
        // The last `.creating-`, after at least one byte of the log's name.
        guard bytes.count > marker.count,
              let start = (1...(bytes.count - marker.count)).reversed().first(where: { bytes[$0..<($0 + marker.count)].elementsEqual(marker) })
        else { return nil }
        let digits = bytes[(start + marker.count)...]
        guard !digits.isEmpty, digits.count <= 10, digits.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }) else { return nil }
        let value = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
        guard value > 0, let pid = pid_t(exactly: value) else { return nil }
        return pid
    }
}
