/// Codec 2 of a record payload (format version 5): the payload's bytes range-coded one
/// by one under an adaptive order-1 model, in pure Swift, so that a build without libzstd
/// (every iOS, tvOS, watchOS and visionOS app) still compresses its checkpoints.
///
/// Each byte is coded as 8 binary decisions, most significant bit first, down a binary
/// tree of 255 models (node 1 is the root; a node's children are 2n and 2n + 1). There
/// is one such tree per value of the byte before (0 before the first byte), so 256 × 256
/// models, all fresh (probability one half) at the start of every payload. The decisions
/// go through `RangeEncoder` exactly as a coded batch's do (docs/LOG-FORMAT.md, "Coded
/// batches"), and the stored payload is that coder's finished output; the record header's
/// raw length says how many bytes to decode.
///
/// On a random-walk session's snapshots (7 KB, mostly row heights) it stores 48% of the
/// bytes (`zstd -19`: 48%); on the standard session's (5 KB, mostly the undo stack) 21%
/// (`zstd -19`: 13%).
enum ByteModelCoder {
    /// Models per context: the tree's nodes 1...255 (index 0 is unused).
    private static let treeSize = 256

    /// `raw`, coded.
    static func encode(_ raw: [UInt8]) -> [UInt8] {
        var models = [UInt32](repeating: RangeCoder.fresh, count: treeSize * 256)
        var coder = RangeEncoder(capacity: raw.count / 2 + 16)
        models.withUnsafeMutableBufferPointer { m in
            var context = 0
            for byte in raw {
                let base = context &* treeSize
                var node = 1
                for k in stride(from: 7, through: 0, by: -1) {
                    let bit = (Int(byte) &>> k) & 1
                    coder.encode(bit != 0, &m[base &+ node])
                    node = node &* 2 &+ bit
                }
                context = Int(byte)
            }
        }
        return coder.finished()
    }

    /// Why a stored payload does not decode.
    struct Failure: Error {
        var reason: String
        /// Where in the stored payload the decoder was when it found out.
        var position: Int
    }

    /// Decodes exactly `rawLength` bytes from `stored`. The caller bounds `rawLength` by
    /// the format's limits first (`RecordHeader.limitViolation`): the decoder allocates
    /// exactly that. Fails when the decoder reads past the stored bytes further than a
    /// finished stream's left-out zero bytes allow, or leaves stored bytes unread (an
    /// encoder's output ends where its decoder's reads do, give or take those zeros).
    static func decode(_ stored: UnsafeRawBufferPointer, rawLength: Int) -> Result<[UInt8], Failure> {
        guard rawLength >= 0, rawLength <= LogFormat.Limits.payloadBytes else {
            return .failure(Failure(reason: "claims \(rawLength) bytes, over the format's limit", position: 0))
        }
        var decoder = RangeDecoder(Array(stored))
        var models = [UInt32](repeating: RangeCoder.fresh, count: treeSize * 256)
        var out = [UInt8](repeating: 0, count: rawLength)
        var overranAt: Int?
        models.withUnsafeMutableBufferPointer { m in
            out.withUnsafeMutableBufferPointer { o in
                var context = 0
                for i in 0..<rawLength {
                    let base = context &* treeSize
                    var node = 1
                    for _ in 0..<8 { node = node &* 2 &+ decoder.decodeBit(&m[base &+ node]) }
                    let byte = node &- treeSize
                    o[i] = UInt8(truncatingIfNeeded: byte)
                    context = byte
                    // A forged payload can claim many bytes from a few: stop at the first overrun.
                    if i & 255 == 255, decoder.overran {
                        overranAt = i + 1
                        break
                    }
                }
            }
        }
        if let at = overranAt ?? (decoder.overran ? rawLength : nil) {
            return .failure(Failure(reason: "runs past its \(stored.count) stored bytes after \(at) of \(rawLength) bytes",
                                    position: stored.count))
        }
        if decoder.position < stored.count {
            return .failure(Failure(reason: "leaves \(stored.count - decoder.position) of its \(stored.count) stored bytes unread",
                                    position: decoder.position))
        }
        return .success(out)
    }
}
