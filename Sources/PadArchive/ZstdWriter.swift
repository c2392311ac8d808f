import CZstd

/// Streaming zstd compression into another sink (`ZSTD_compressStream2`), with the frame
/// checksum on so that `zstd -t` and readers detect corruption.
///
/// ```swift
/// let file = try FileSink(path: folder + "/results.tar.zst")
/// let zstd = try ZstdWriter(into: file, path: file.path, level: 6)
/// try zstd.write(bytes)
/// try zstd.finish()       // ends the frame
/// try file.close()
/// ```
package final class ZstdWriter: ByteSink {
    private let sink: ByteSink
    private let path: String
    private let context: OpaquePointer
    private var output: [UInt8]
    private var finished = false

    /// - Parameters:
    ///   - level: zstd level (1-19; 3 is zstd's default).
    ///   - workers: `ZSTD_c_nbWorkers`; 0 compresses on the calling thread.
    package init(into sink: ByteSink, path: String, level: Int = 6, workers: Int = 0) throws {
        guard let context = ZSTD_createCCtx() else {
            throw ArchiveError.zstd(path: path, message: "cannot create zstd context")
        }
        self.sink = sink
        self.path = path
        self.context = context
        self.output = [UInt8](repeating: 0, count: ZSTD_CStreamOutSize())
        try check(ZSTD_CCtx_setParameter(context, ZSTD_c_compressionLevel, Int32(level)))
        try check(ZSTD_CCtx_setParameter(context, ZSTD_c_checksumFlag, 1))
        if workers > 0 { try check(ZSTD_CCtx_setParameter(context, ZSTD_c_nbWorkers, Int32(workers))) }
    }

    deinit { ZSTD_freeCCtx(context) }

    private func check(_ code: Int) throws {
        if ZSTD_isError(code) != 0 {
            throw ArchiveError.zstd(path: path, message: "zstd: \(String(cString: ZSTD_getErrorName(code)))")
        }
    }

    package func write(_ bytes: UnsafeRawBufferPointer) throws {
        precondition(!finished, "write after finish")
        try compress(bytes, directive: ZSTD_e_continue)
    }

    /// Ends the current frame and flushes it into the sink; later writes start a new frame (a
    /// zstd stream may hold several frames one after another). Lets a frame made elsewhere
    /// (``ArchiveMemberWriter``) be copied into the sink between two of this writer's frames.
    package func endFrame() throws {
        precondition(!finished, "endFrame after finish")
        try compress(UnsafeRawBufferPointer(start: nil, count: 0), directive: ZSTD_e_end)
    }

    /// Ends the zstd frame and flushes everything into the sink.
    package func finish() throws {
        guard !finished else { return }
        finished = true
        try compress(UnsafeRawBufferPointer(start: nil, count: 0), directive: ZSTD_e_end)
    }

    private func compress(_ bytes: UnsafeRawBufferPointer, directive: ZSTD_EndDirective) throws {
        var input = ZSTD_inBuffer(src: bytes.baseAddress, size: bytes.count, pos: 0)
        let capacity = output.count
        while true {
            var remaining = 0
            var produced = 0
            try output.withUnsafeMutableBytes { raw in
                var out = ZSTD_outBuffer(dst: raw.baseAddress, size: capacity, pos: 0)
                remaining = ZSTD_compressStream2(context, &out, &input, directive)
                try check(remaining)
                produced = out.pos
            }
            if produced > 0 {
                try output.withUnsafeBytes { raw in
                    try sink.write(UnsafeRawBufferPointer(rebasing: raw[0..<produced]))
                }
            }
            let done = directive == ZSTD_e_end ? remaining == 0 : input.pos == input.size
            if done { return }
        }
    }
}
