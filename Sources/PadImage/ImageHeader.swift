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
