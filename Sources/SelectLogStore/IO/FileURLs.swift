import Foundation

// The entry points that open a log by path, by file URL too: an app has URLs (its
// Application Support directory, a document picker's), and each took only the path.

extension Recorder {
    /// Creates a new log at a file URL (an app's Application Support, for instance).
    ///
    /// The same as `init(creating:options:replacingExisting:)` with the URL's path; a URL
    /// that is not a file URL is an `.io` error naming it.
    public convenience init(creating url: URL, options: Options = Options(), replacingExisting: Bool = false) throws(LogError) {
        try self.init(creating: try filePath(url), options: options, replacingExisting: replacingExisting)
    }

    /// Opens the log at a file URL to append to it, as `init(appendingTo:options:)`.
    public convenience init(appendingTo url: URL, options: Options = Options()) throws(LogError) {
        try self.init(appendingTo: try filePath(url), options: options)
    }
}

extension LogReader {
    /// Opens the log at a file URL for reading, as `init(path:)`; a URL that is not a
    /// file URL is an `.io` error naming it.
    public convenience init(url: URL) throws(LogError) {
        try self.init(path: try filePath(url))
    }

    /// Opens the log at a file URL for reading, handing the notice that its checkpoints
    /// are not used to `onUntrustedCheckpoints`, as `init(path:onUntrustedCheckpoints:)`.
    public convenience init(url: URL, onUntrustedCheckpoints: (String) -> Void) throws(LogError) {
        try self.init(path: try filePath(url), onUntrustedCheckpoints: onUntrustedCheckpoints)
    }

    /// Checks the log at a file URL, as `verify(path:replaying:)`.
    public static func verify(url: URL, replaying: Bool = false) throws(LogError) -> VerifyReport {
        try verify(path: try filePath(url), replaying: replaying)
    }
}

extension LogRepair {
    /// Checks the log at a file URL and cuts it back to its intact prefix when it is
    /// damaged or torn, as `repair(_:replaying:checked:waiting:)`.
    public static func repair(_ url: URL, replaying: Bool = false, checked: VerifyReport? = nil,
                              waiting: () -> Void = {}) throws(LogError) -> Outcome {
        try repair(try filePath(url), replaying: replaying, checked: checked, waiting: waiting)
    }

    /// Saves the bytes of the log at a file URL from `offset` on beside it and cuts the log
    /// there, as `cut(_:at:checkedSize:waiting:)`.
    public static func cut(_ url: URL, at offset: Int, checkedSize: Int? = nil, waiting: () -> Void = {}) throws(LogError) -> Result {
        try cut(try filePath(url), at: offset, checkedSize: checkedSize, waiting: waiting)
    }
}

extension Recorder {
    /// Removes what creations killed in their first milliseconds left in a directory,
    /// as `removeAbandonedCreations(in:)` with the URL's path.
    ///
    /// - Parameter directory: The directory the logs are created in, as a file URL.
    /// - Returns: The names of the files removed.
    /// - Throws: `.io` when the directory cannot be listed, or the URL is no file URL.
    @discardableResult
    public static func removeAbandonedCreations(in directory: URL) throws(LogError) -> [String] {
        try removeAbandonedCreations(in: try filePath(directory))
    }
}

/// The path of a file URL; any other URL is an `.io` error naming it: a log is a local file.
private func filePath(_ url: URL) throws(LogError) -> String {
    guard url.isFileURL else { throw LogError(.io, "not a file URL; a log is a local file", path: url.absoluteString) }
    return url.path
}
