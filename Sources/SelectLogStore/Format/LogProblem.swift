/// The first place a log stops being trustworthy.
public struct LogProblem: Sendable, Equatable, CustomStringConvertible {
    /// The first bad byte.
    public var offset: Int
    /// What is wrong there, in words.
    public var reason: String
    /// A partial last record (a crash mid-write), not corruption of written data.
    public var isTornTail: Bool
    /// The file does not begin as a log does (its magic): no log at all, not a damaged one.
    public var isNotALog = false
    /// Written by a newer selectlog: a format version, an event type or fields this
    /// reader does not know. Not damage: a newer build reads it, and nothing is to be cut.
    public var isNewer = false
    /// Damage to the file header's first 8 bytes alone, the magic: the rest of the header
    /// checks out (its checksum covers the magic). `LogRepair.repair` writes the magic again.
    public var isDamagedMagic = false
    /// The problem is the seek index's alone: a record whose header (which checks out)
    /// says it is the index, torn or damaged; an index whose entries disagree with the
    /// records walked; or a record whose header fails where the trailer names the index,
    /// whose entries list exactly the records before it. Every event is in the records
    /// before it, and every reader but `verify` passes the index over and reads them all.
    /// `LogRepair.repair` cuts the index off. (A torn tail whose header does not check
    /// out is not known to be the index: false then.)
    public var isIndexOnly = false
    public var description: String { "byte offset \(offset): \(reason)" }
}
