#if canImport(CZstd)
import CZstd
#endif

/// Whether this build of the store compresses with libzstd.
///
/// The package links `CZstd` only where a system libzstd exists (Linux, and macOS
/// with Homebrew's zstd); an iOS, tvOS, watchOS or visionOS build, or a Linux build
/// with `SELECTLOG_WITHOUT_ZSTD=1` in the environment, has none. Such a build writes
/// the same format version as every build: its batches stored (checksummed and
/// range-coded, as every build's are) and its checkpoints range-coded in pure Swift
/// (`ByteModelCoder`, codec 2, which every build reads). It reads every log it wrote, and refuses a zstd record
/// with `Zstd.unavailableMessage`; `selectlog compact` rewrites such a log with zstd.
package enum Zstd {
    /// True when libzstd is linked into this build.
    package static var isAvailable: Bool {
        #if canImport(CZstd)
        true
        #else
        false
        #endif
    }

    /// What a build without libzstd says when it meets a zstd-compressed record.
    package static let unavailableMessage = "this build reads no zstd batches (it was built without libzstd)"
}

#if canImport(CZstd)

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

#else

/// The compressor of a build without libzstd: there is none, so records are stored.
final class ZstdCompressor {
    let level: Int32

    /// Always nil: the writer then stores every record uncompressed.
    init?(level: Int32) { return nil }

    /// Never called (no instance exists); kept so the writer compiles unchanged.
    func compress(_ input: [UInt8]) -> [UInt8]? { nil }
}

/// The decompressor of a build without libzstd: it exists, so that a reader meets
/// a zstd record with a clear reason instead of a missing context, and refuses it.
final class ZstdDecompressor {
    init?() {}

    /// Always fails with `Zstd.unavailableMessage` (`ZstdError.isUnavailable`).
    func decompress(_ input: UnsafeRawBufferPointer, rawLength: Int) -> Result<[UInt8], ZstdError> {
        .failure(ZstdError(message: Zstd.unavailableMessage, isUnavailable: true))
    }
}

#endif

extension ZstdDecompressor {
    /// Decompresses `input` into exactly `rawLength` bytes; throws a `LogError` at
    /// `offset`: `.unsupported` in a build without libzstd, `.damaged` when the
    /// bytes do not decompress.
    func decompressed(_ input: UnsafeRawBufferPointer, rawLength: Int, offset: Int) throws(LogError) -> [UInt8] {
        switch decompress(input, rawLength: rawLength) {
        case .success(let raw): return raw
        case .failure(let e): throw e.logError(offset: offset)
        }
    }
}

/// Why libzstd could not give the bytes back.
struct ZstdError: Error {
    var message: String
    /// True in a build without libzstd: nothing is wrong with the bytes.
    var isUnavailable = false

    /// The error as the log reports it at `offset`.
    func logError(offset: Int) -> LogError {
        isUnavailable ? LogError(.unsupported, message, offset: offset) : LogError(.damaged, "zstd: \(message)", offset: offset)
    }
}
