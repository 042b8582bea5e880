import CZstd

/// libzstd, wrapped once: the only file in the package that touches a C pointer
/// of the compressor. Contexts are reused, so each instance belongs to one thread.
final class ZstdCompressor {
    private let context: OpaquePointer
    let level: Int32

    init?(level: Int32) {
        guard let c = ZSTD_createCCtx() else { return nil }
        context = c
        self.level = level
    }

    deinit { ZSTD_freeCCtx(context) }

    /// `input` compressed, or nil when libzstd reports an error.
    func compress(_ input: [UInt8]) -> [UInt8]? {
        let bound = ZSTD_compressBound(input.count)
        var output = [UInt8](repeating: 0, count: bound)
        let context = self.context, level = self.level
        let written = output.withUnsafeMutableBytes { dst in
            input.withUnsafeBytes { src in
                ZSTD_compressCCtx(context, dst.baseAddress, dst.count, src.baseAddress, src.count, level)
            }
        }
        if ZSTD_isError(written) != 0 { return nil }
        output.removeSubrange(written...)
        return output
    }
}

final class ZstdDecompressor {
    private let context: OpaquePointer

    init?() {
        guard let d = ZSTD_createDCtx() else { return nil }
        context = d
    }

    deinit { ZSTD_freeDCtx(context) }

    /// Decompresses `input` into exactly `rawLength` bytes, or returns a reason.
    func decompress(_ input: UnsafeRawBufferPointer, rawLength: Int) -> Result<[UInt8], ZstdError> {
        var output = [UInt8](repeating: 0, count: rawLength)
        let context = self.context
        let produced = output.withUnsafeMutableBytes { dst in
            ZSTD_decompressDCtx(context, dst.baseAddress, dst.count, input.baseAddress, input.count)
        }
        if ZSTD_isError(produced) != 0 {
            return .failure(ZstdError(message: String(cString: ZSTD_getErrorName(produced))))
        }
        if produced != rawLength { return .failure(ZstdError(message: "decompressed \(produced) bytes, expected \(rawLength)")) }
        return .success(output)
    }
}

struct ZstdError: Error {
    var message: String
}
