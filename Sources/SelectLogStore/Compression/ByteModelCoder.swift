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
            raw.withUnsafeBufferPointer { r in
                guard let trees = m.baseAddress, let bytes = r.baseAddress else { return }
                encode(bytes, count: r.count, into: &coder, trees: trees)
            }
        }
        return coder.finished()
    }

    /// The coding loop, on the coder's registers in a local.
    private static func encode(_ bytes: UnsafePointer<UInt8>, count: Int, into coder: inout RangeEncoder,
                               trees: UnsafeMutablePointer<UInt32>) {
        var c = coder.core
        var tree = trees
        for i in 0..<count {
            let byte = Int(bytes[i])
            var node = 1
            for k in stride(from: 7, through: 0, by: -1) {
                let bit = (byte &>> k) & 1
                coder.encode(bit != 0, tree + node, &c)
                node = node &* 2 &+ bit
            }
            tree = trees + byte &* treeSize
        }
        coder.core = c
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
        let decoder = RangeDecoder(Array(stored))
        var c = decoder.core
        var models = [UInt32](repeating: RangeCoder.fresh, count: treeSize * 256)
        var out = [UInt8](repeating: 0, count: rawLength)
        var overranAt: Int?
        models.withUnsafeMutableBufferPointer { m in
            out.withUnsafeMutableBufferPointer { o in
                guard let trees = m.baseAddress, let bytes = o.baseAddress else { return }
                overranAt = decode(&c, into: bytes, count: rawLength, trees: trees)
            }
        }
        // `c` reads the bytes `decoder` owns: it lives to here.
        withExtendedLifetime(decoder) {}
        if let at = overranAt ?? (c.overran ? rawLength : nil) {
            return .failure(Failure(reason: "runs past its \(stored.count) stored bytes after \(at) of \(rawLength) bytes",
                                    position: stored.count))
        }
        if c.position < stored.count {
            return .failure(Failure(reason: "leaves \(stored.count - c.position) of its \(stored.count) stored bytes unread",
                                    position: c.position))
        }
        return .success(out)
    }

    /// The decoding loop, on the decoder's registers `c`: nil, or how many bytes it had
    /// decoded when it found itself past the end of the stored bytes (checked every 256
    /// bytes, so that a forged payload claiming many bytes from a few stops early).
    private static func decode(_ c: inout RangeDecoderCore, into out: UnsafeMutablePointer<UInt8>, count: Int,
                               trees: UnsafeMutablePointer<UInt32>) -> Int? {
        var tree = trees
        for i in 0..<count {
            var node = 1
            for _ in 0..<8 { node = node &* 2 &+ c.decodeBit(&tree[node]) }
            let byte = node &- treeSize
            out[i] = UInt8(truncatingIfNeeded: byte)
            tree = trees + byte &* treeSize
            if i & 255 == 255, c.overran { return i + 1 }
        }
        return nil
    }
}
