// Stand-in until the embedding work lands `Zstd.isAvailable` in Compression/Zstd.swift
// (then this file is deleted): this build always has libzstd.

/// Whether this build has libzstd.
enum Zstd {
    /// True when the build links libzstd and can read and write zstd batches.
    static let isAvailable = true
}
