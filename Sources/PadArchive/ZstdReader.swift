import CZstd

/// Streaming zstd decompression (`ZSTD_decompressStream`) of a whole file.
///
/// ```swift
/// let tarBytes = try ZstdReader.decompressFile("results.tar.zst")
/// ```
/// A file that is not zstd, or ends inside a frame, is an error naming the file.
public enum ZstdReader {
    public static func decompressFile(_ path: String) throws -> [UInt8] {
        let source = try FileSource(path: path)
        guard let context = ZSTD_createDCtx() else { throw ArchiveError.zstd(path: path, message: "cannot create zstd context") }
        defer { ZSTD_freeDCtx(context) }
        var input = [UInt8](repeating: 0, count: ZSTD_DStreamInSize())
        var output = [UInt8](repeating: 0, count: ZSTD_DStreamOutSize())
        var result: [UInt8] = []
        var lastReturn = 0
        var sawInput = false
        while true {
            let n = try source.read(into: &input)
            if n == 0 { break }
            if !sawInput {
                sawInput = true
                if n >= 4, !(input[0] == 0x28 && input[1] == 0xB5 && input[2] == 0x2F && input[3] == 0xFD) {
                    throw ArchiveError.zstd(path: path, message: "not a zstd stream (bad magic number)")
                }
            }
            var consumed = 0
            while consumed < n {
                var produced = 0
                let code: Int = input.withUnsafeBytes { inRaw in
                    output.withUnsafeMutableBytes { outRaw in
                        var inBuffer = ZSTD_inBuffer(src: inRaw.baseAddress, size: n, pos: consumed)
                        var outBuffer = ZSTD_outBuffer(dst: outRaw.baseAddress, size: outRaw.count, pos: 0)
                        let code = ZSTD_decompressStream(context, &outBuffer, &inBuffer)
                        consumed = inBuffer.pos
                        produced = outBuffer.pos
                        return code
                    }
                }
                if ZSTD_isError(code) != 0 {
                    throw ArchiveError.zstd(path: path, message: "corrupt zstd stream: \(String(cString: ZSTD_getErrorName(code)))")
                }
                result.append(contentsOf: output[0..<produced])
                lastReturn = code
            }
        }
        if !sawInput { throw ArchiveError.zstd(path: path, message: "empty file, not a zstd stream") }
        // The decoder may still hold output when the last input chunk ended the frame's data.
        while lastReturn != 0 {
            var produced = 0
            let code: Int = output.withUnsafeMutableBytes { outRaw in
                var inBuffer = ZSTD_inBuffer(src: nil, size: 0, pos: 0)
                var outBuffer = ZSTD_outBuffer(dst: outRaw.baseAddress, size: outRaw.count, pos: 0)
                let code = ZSTD_decompressStream(context, &outBuffer, &inBuffer)
                produced = outBuffer.pos
                return code
            }
            if ZSTD_isError(code) != 0 { throw ArchiveError.zstd(path: path, message: "corrupt zstd stream") }
            result.append(contentsOf: output[0..<produced])
            lastReturn = code
            if produced == 0 && code != 0 {
                throw ArchiveError.zstd(path: path, message: "truncated zstd stream (frame not complete)")
            }
        }
        return result
    }
}
