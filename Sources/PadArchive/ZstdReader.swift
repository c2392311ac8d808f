import CZstd

/// Streaming zstd decompression (`ZSTD_decompressStream`) of a file, read on demand in bounded
/// memory, with a limit on the decompressed bytes (decompression bombs).
///
/// Example: `PadArchiveDocExamples.tarOverZstd`
/// in `Tests/PadArchiveTests/DocExamplesTests.swift` (compiled and run by `swift test`).
/// A file that is not zstd, or ends inside a frame, is an error naming the file; producing more
/// than `limit` bytes is ``ArchiveError/limit(path:message:)``.
package final class ZstdStream {
    package let path: String
    package let limit: Int
    /// Decompressed bytes handed out so far.
    package private(set) var produced = 0
    private let source: FileSource
    private let context: OpaquePointer
    private var input: [UInt8]
    private var inputCount = 0, inputPosition = 0
    private var output: [UInt8]
    private var outputStart = 0, outputEnd = 0
    private var lastCode = 0
    private var sawInput = false, endOfFile = false

    package init(path: String, limit: Int) throws {
        self.path = path
        self.limit = limit
        source = try FileSource(path: path)
        guard let context = ZSTD_createDCtx() else {
            throw ArchiveError.zstd(path: path, message: "cannot create zstd context")
        }
        self.context = context
        input = [UInt8](repeating: 0, count: ZSTD_DStreamInSize())
        output = [UInt8](repeating: 0, count: ZSTD_DStreamOutSize())
    }

    deinit { ZSTD_freeDCtx(context) }

    /// Copies up to `buffer.count` decompressed bytes into `buffer`; 0 at the end of the stream.
    package func read(into buffer: UnsafeMutableRawBufferPointer) throws -> Int {
        if outputStart == outputEnd, try !refill() { return 0 }
        let n = min(buffer.count, outputEnd - outputStart)
        output.withUnsafeBytes { raw in
            buffer.baseAddress!.copyMemory(from: raw.baseAddress! + outputStart, byteCount: n)
        }
        outputStart += n
        return n
    }

    /// Decompresses the next piece of output; false at the clean end of the stream.
    private func refill() throws -> Bool {
        while true {
            if inputPosition == inputCount && !endOfFile { try readInput() }
            let atEnd = endOfFile && inputPosition == inputCount
            // A finished frame (code 0) with no input left is the end; calling again would start a new frame.
            if atEnd && lastCode == 0 { return false }
            let made = try decompressStep()
            if made > 0 {
                produced += made
                if produced > limit {
                    throw ArchiveError.limit(
                        path: path,
                        message:
                            "decompresses to more than \(limit) bytes (the limit; "
                            + "a damaged archive or a decompression bomb)"
                    )
                }
                return true
            }
            if atEnd {
                if lastCode != 0 {
                    throw ArchiveError.zstd(path: path, message: "truncated zstd stream (frame not complete)")
                }
                return false
            }
        }
    }

    private func readInput() throws {
        let n = try source.read(into: &input)
        inputCount = n
        inputPosition = 0
        if n == 0 {
            endOfFile = true
            if !sawInput { throw ArchiveError.zstd(path: path, message: "empty file, not a zstd stream") }
            return
        }
        if !sawInput {
            sawInput = true
            if n >= 4, !(input[0] == 0x28 && input[1] == 0xB5 && input[2] == 0x2F && input[3] == 0xFD) {
                throw ArchiveError.zstd(path: path, message: "not a zstd stream (bad magic number)")
            }
        }
    }

    /// One `ZSTD_decompressStream` call into the empty output buffer; returns the bytes made.
    private func decompressStep() throws -> Int {
        var produced = 0
        var consumed = inputPosition
        let available = inputCount
        let code: Int = input.withUnsafeBytes { inRaw in
            output.withUnsafeMutableBytes { outRaw in
                var inBuffer = ZSTD_inBuffer(src: inRaw.baseAddress, size: available, pos: consumed)
                var outBuffer = ZSTD_outBuffer(dst: outRaw.baseAddress, size: outRaw.count, pos: 0)
                let code = ZSTD_decompressStream(context, &outBuffer, &inBuffer)
                consumed = inBuffer.pos
                produced = outBuffer.pos
                return code
            }
        }
        if ZSTD_isError(code) != 0 {
            throw ArchiveError.zstd(
                path: path, message: "corrupt zstd stream: \(String(cString: ZSTD_getErrorName(code)))")
        }
        inputPosition = consumed
        lastCode = code
        outputStart = 0
        outputEnd = produced
        return produced
    }
}
