import Foundation

extension Recorder {
    /// Creates a new log at a file URL (an app's Application Support, for instance).
    ///
    /// The same as `init(creating:options:replacingExisting:)` with the URL's path; a URL
    /// that is not a file URL is an `.io` error naming it.
    public convenience init(creating url: URL, options: Options = Options(), replacingExisting: Bool = false) throws(LogError) {
        try self.init(creating: try Recorder.filePath(url), options: options, replacingExisting: replacingExisting)
    }

    /// Opens the log at a file URL to append to it, as `init(appendingTo:options:)`.
    public convenience init(appendingTo url: URL, options: Options = Options()) throws(LogError) {
        try self.init(appendingTo: try Recorder.filePath(url), options: options)
    }

    private static func filePath(_ url: URL) throws(LogError) -> String {
        guard url.isFileURL else { throw LogError(.io, "not a file URL; a log is a local file", path: url.absoluteString) }
        return url.path
    }
}
