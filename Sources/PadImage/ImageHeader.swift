import CTurboJPEG
import Foundation
import PadText

extension ImageDecoder {
    /// The stored size of a JPEG, PNG or PPM/PGM without decoding pixels (before EXIF orientation),
    /// for scaling dataset face boxes. `nil` for an unreadable or unknown file.
    package static func storedSize(fileAt path: String) -> (width: Int, height: Int)? {
        guard RegularFile.problem(path) == nil, let handle = FileHandle(forReadingAtPath: path) else { return nil }
        defer { try? handle.close() }
        var bytes = [UInt8](handle.readData(ofLength: 65_536))
        switch ImageFormat(signatureOf: bytes) {
        case .png:
            guard bytes.count >= 24 else { return nil }
            func be32(_ i: Int) -> Int {
                Int(bytes[i]) << 24 | Int(bytes[i + 1]) << 16 | Int(bytes[i + 2]) << 8 | Int(bytes[i + 3])
            }
            return (be32(16), be32(20))
        case .jpeg:
            // The SOF marker may sit after large APP segments: read the whole file if needed.
            if let rest = try? handle.readToEnd() { bytes += [UInt8](rest) }
            guard let tj = tjInitDecompress() else { return nil }
            defer { tjDestroy(tj) }
            var w: Int32 = 0, h: Int32 = 0, s: Int32 = 0, c: Int32 = 0
            let status = bytes.withUnsafeBufferPointer {
                tjDecompressHeader3(tj, $0.baseAddress, UInt($0.count), &w, &h, &s, &c)
            }
            return status == 0 ? (Int(w), Int(h)) : nil
        case .pnm:
            let text = String(decoding: bytes.prefix(256), as: UTF8.self)
            let numbers = text.dropFirst(2).split(whereSeparator: {
                $0 == " " || $0 == "\n" || $0 == "\t" || $0 == "\r"
            }).compactMap { Int($0) }
            return numbers.count >= 2 ? (numbers[0], numbers[1]) : nil
        case nil:
            return nil
        }
    }
}

/// What a still image's header says without its pixels: the size padbench's decode would give
/// (EXIF orientation applied when the decoder applies it) and the orientation the file is stored
/// with. For runs whose estimators read no pixels (external programs that read the file
/// themselves), so padbench does not decode what nobody looks at.
package struct StillHeader: Sendable, Equatable {
    package var width: Int
    package var height: Int
    /// The EXIF orientation the file is stored with (1-8; 1 without one and for PNG and PNM).
    package var storedOrientation: Int
}

extension ImageDecoder {
    /// The header of a still image file, checked as ``decodeWithOrientation(fileAt:)`` checks it
    /// before decoding: the same file limits (`missing_file`, `too_large`), the format signature
    /// (`unsupported_format`), a readable header with a non-empty size (`decode_error`) and the
    /// pixel limit (`too_large`). Damage after the header is not seen: the pixels are not decoded.
    package func header(fileAt path: String) throws(ImageError) -> StillHeader {
        let bytes = try read(path)
        switch ImageFormat(signatureOf: bytes) {
        case .jpeg:
            guard let handle = tjInitDecompress() else { throw .decodeError("TurboJPEG: cannot create decompressor") }
            defer { tjDestroy(handle) }
            let size = try jpegSize(bytes, handle: handle)
            let orientation = ExifOrientation.read(fromJPEG: bytes)
            let transposed = applyExifOrientation && (orientation?.transposesAxes ?? false)
            return StillHeader(
                width: transposed ? size.height : size.width, height: transposed ? size.width : size.height,
                storedOrientation: orientation?.rawValue ?? 1)
        case .png:
            let size = try pngSize(bytes)
            return StillHeader(width: size.width, height: size.height, storedOrientation: 1)
        case .pnm, nil:
            // A PNM is its header and a copy of its bytes: decoding it costs what reading it does.
            let image = try decode(bytes)
            return StillHeader(width: image.width, height: image.height, storedOrientation: 1)
        }
    }
}
