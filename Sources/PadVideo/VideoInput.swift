import CAVCodec
import CAVFormat
import CAVUtil
import Foundation
import PadImage

/// An opened container: FFmpeg's demuxer reading through an `AVIOContext` whose read and seek
/// callbacks padbench provides, from a file descriptor or from bytes in memory (the fuzz target).
/// FFmpeg never opens a path or URL itself: no protocol is allowed (`protocol_whitelist` none,
/// so an HLS playlist or a `concat:` name cannot reach other files or the network), and only
/// the demuxers of the formats padbench reads are (`format_whitelist`).
final class VideoInput {
    /// The demuxers allowed (FFmpeg's names: mov serves .mov and .mp4, matroska .mkv and .webm).
    static let formats = "avi,mov,mp4,m4a,3gp,3g2,mj2,matroska,webm"
    static let bufferSize = 65_536

    let format: UnsafeMutablePointer<AVFormatContext>
    private let source: Source

    /// Where the bytes come from; the callbacks below read it through an unmanaged reference.
    final class Source {
        var bytes: [UInt8]
        var descriptor: Int32
        var position: Int64 = 0
        init(bytes: [UInt8]) { self.bytes = bytes; descriptor = -1 }
        init(descriptor: Int32) { self.bytes = []; self.descriptor = descriptor }
        deinit { if descriptor >= 0 { close(descriptor) } }

        var size: Int64 {
            if descriptor < 0 { return Int64(bytes.count) }
            var info = stat()
            return fstat(descriptor, &info) == 0 ? Int64(info.st_size) : -1
        }

        func read(into target: UnsafeMutablePointer<UInt8>, count: Int) -> Int32 {
            if descriptor >= 0 {
                let n = pread(descriptor, target, count, off_t(position))
                if n < 0 { return -Int32(EIO) }
                if n == 0 { return padbench_averror_eof }
                position += Int64(n)
                return Int32(n)
            }
            let available = Int64(bytes.count) - position
            guard available > 0 else { return padbench_averror_eof }
            let n = Int(min(Int64(count), available))
            bytes.withUnsafeBufferPointer { target.update(from: $0.baseAddress! + Int(position), count: n) }
            position += Int64(n)
            return Int32(n)
        }
    }

    /// Opens the file at `path` (a regular file only: directories and FIFOs are refused).
    convenience init(path: String) throws(ImageError) {
        var info = stat()
        guard stat(path, &info) == 0 else { throw .missingFile(path: path, reason: "no such file") }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw .missingFile(path: path, reason: "not a regular file")
        }
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw .missingFile(path: path, reason: String(cString: strerror(errno))) }
        try self.init(source: Source(descriptor: fd))
    }

    convenience init(bytes: [UInt8]) throws(ImageError) {
        guard !bytes.isEmpty else { throw .decodeError("empty file") }
        try self.init(source: Source(bytes: bytes))
    }

    private init(source: Source) throws(ImageError) {
        self.source = source
        guard let context = avformat_alloc_context(), let buffer = av_malloc(Self.bufferSize) else {
            throw .decodeError("FFmpeg: out of memory")
        }
        let opaque = Unmanaged.passUnretained(source).toOpaque()
        guard
            let io = avio_alloc_context(
                buffer.assumingMemoryBound(to: UInt8.self), Int32(Self.bufferSize), 0, opaque, videoRead, nil,
                videoSeek)
        else {
            av_free(buffer)
            avformat_free_context(context)
            throw .decodeError("FFmpeg: out of memory")
        }
        context.pointee.pb = io
        context.pointee.flags |= AVFMT_FLAG_CUSTOM_IO
        context.pointee.format_whitelist = av_strdup(Self.formats)
        context.pointee.protocol_whitelist = av_strdup("none")
        var opened: UnsafeMutablePointer<AVFormatContext>? = context
        let status = avformat_open_input(&opened, nil, nil, nil)
        guard status >= 0, let opened else {
            // avformat_open_input frees the context on failure, not the custom AVIOContext.
            Self.freeIO(io)
            throw .unsupportedFormat("not a video padbench reads (AVI, MOV, MP4, MKV, WebM): \(averror(status))")
        }
        format = opened
    }

    deinit {
        let io = format.pointee.pb
        var context: UnsafeMutablePointer<AVFormatContext>? = format
        avformat_close_input(&context)
        Self.freeIO(io)
        withExtendedLifetime(source) {}
    }

    private static func freeIO(_ io: UnsafeMutablePointer<AVIOContext>?) {
        guard let io else { return }
        av_freep(&io.pointee.buffer)
        var pointer: UnsafeMutablePointer<AVIOContext>? = io
        avio_context_free(&pointer)
    }
}

/// FFmpeg's text for an error code (`av_strerror`).
func averror(_ code: Int32) -> String {
    var text = [CChar](repeating: 0, count: 128)
    av_strerror(code, &text, text.count)
    let bytes = text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }
    return String(decoding: bytes, as: UTF8.self)
}

private func videoRead(_ opaque: UnsafeMutableRawPointer?, _ buffer: UnsafeMutablePointer<UInt8>?, _ size: Int32)
    -> Int32
{
    guard let opaque, let buffer, size > 0 else { return padbench_averror_eof }
    return Unmanaged<VideoInput.Source>.fromOpaque(opaque).takeUnretainedValue().read(into: buffer, count: Int(size))
}

private func videoSeek(_ opaque: UnsafeMutableRawPointer?, _ offset: Int64, _ whence: Int32) -> Int64 {
    guard let opaque else { return -1 }
    let source = Unmanaged<VideoInput.Source>.fromOpaque(opaque).takeUnretainedValue()
    let size = source.size
    let target: Int64
    switch whence & ~AVSEEK_FORCE {
    case AVSEEK_SIZE: return size
    case SEEK_SET: target = offset
    case SEEK_CUR: target = source.position + offset
    case SEEK_END: target = size + offset
    default: return -1
    }
    guard target >= 0, target <= size else { return -1 }
    source.position = target
    return target
}
