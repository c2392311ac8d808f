import CAVCodec
import CAVFormat
import CAVUtil
import PadImage

/// How a stream's frames are turned upright: the display matrix side data (phones record
/// portrait video as rotated landscape) read the way the `ffmpeg` command line reads it
/// (fftools, `get_rotation` and the transpose/hflip/vflip filters it inserts), so that frames
/// padbench measures are the frames `ffmpeg -i IN -pix_fmt rgb24` gives.
///
/// The angle is `theta = -round(av_display_rotation_get(matrix))`, brought into [0, 360);
/// 90 is `transpose=clock` (`cclock_flip` when `matrix[3] > 0`), 270 is `transpose=cclock`
/// (`clock_flip` when `matrix[3] < 0`), 180 is `hflip` when `matrix[0] < 0` and `vflip` when
/// `matrix[4] < 0`, 0 is `vflip` when `matrix[4] < 0`. Other angles are refused
/// (`unsupported_format`): the command line would resample them with its `rotate` filter.
package struct DisplayRotation: Sendable, Equatable, CustomStringConvertible {
    /// `dst(x, y) = src(sx, sy)` with the source column and row as below (vf_transpose's `dir`
    /// bits: 1 reverses source rows, 2 reverses destination rows), or the flips alone.
    package enum Kind: Sendable, Equatable {
        case none
        case transpose(reverseSourceRows: Bool, reverseDestinationRows: Bool)
        case flip(horizontal: Bool, vertical: Bool)
    }

    package var kind: Kind
    /// Degrees clockwise the frames are turned (0, 90, 180 or 270), for reports.
    package var degrees: Int

    package init(kind: Kind, degrees: Int) {
        self.kind = kind
        self.degrees = degrees
    }

    package static let none = DisplayRotation(kind: .none, degrees: 0)

    init(stream: UnsafeMutablePointer<AVStream>) throws(ImageError) {
        var size: Int = 0
        guard let raw = av_stream_get_side_data(stream, AV_PKT_DATA_DISPLAYMATRIX, &size), size >= 36 else {
            self = .none
            return
        }
        let values = raw.withMemoryRebound(to: Int32.self, capacity: 9) {
            Array(UnsafeBufferPointer(start: $0, count: 9))
        }
        try self.init(matrix: values)
    }

    /// The rotation of a display matrix (nine 16.16 / 2.30 fixed-point values, row-major).
    package init(matrix m: [Int32]) throws(ImageError) {
        var theta = m.withUnsafeBufferPointer { -(av_display_rotation_get($0.baseAddress!)).rounded() }
        // A matrix without scale (all zeros, say) has no angle: av_display_rotation_get gives NaN, every
        // comparison in fftools' autorotation is false with NaN, and ffmpeg leaves the frames alone.
        if theta.isNaN {
            self = .none
            return
        }
        theta -= 360 * (theta / 360 + 0.9 / 360).rounded(.down)
        if abs(theta - 90) < 1 {
            // transpose=clock, or cclock_flip for a mirrored matrix.
            self.init(kind: .transpose(reverseSourceRows: m[3] <= 0, reverseDestinationRows: false), degrees: 90)
        } else if abs(theta - 180) < 1 {
            self.init(kind: .flip(horizontal: m[0] < 0, vertical: m[4] < 0), degrees: 180)
        } else if abs(theta - 270) < 1 {
            // transpose=cclock, or clock_flip for a mirrored matrix.
            self.init(kind: .transpose(reverseSourceRows: m[3] < 0, reverseDestinationRows: true), degrees: 270)
        } else if abs(theta) < 1 {
            self.init(kind: m[4] < 0 ? .flip(horizontal: false, vertical: true) : .none, degrees: 0)
        } else {
            throw .unsupportedFormat("display matrix rotates by \(theta) degrees; only multiples of 90 are read")
        }
    }

    package var description: String { "\(degrees)" }

    /// Whether width and height swap.
    package var transposes: Bool { if case .transpose = kind { return true } else { return false } }

    /// `rows` rows of `width * 3` bytes, `stride` bytes apart, as an upright RGB image.
    func apply(_ source: UnsafePointer<UInt8>, stride: Int, width w: Int, height h: Int) -> Image {
        switch kind {
        case .none, .flip(false, false):
            return Self.copy(source, stride: stride, width: w, height: h, horizontal: false, vertical: false)
        case .flip(let horizontal, let vertical):
            return Self.copy(source, stride: stride, width: w, height: h, horizontal: horizontal, vertical: vertical)
        case .transpose(let reverseSource, let reverseDestination):
            // dst(x, y) = src(col, row): transpose (col = y, row = x), with the source's rows
            // reversed (row = h - 1 - x) and/or the destination's rows reversed (col = w - 1 - y).
            let pixels = [UInt8](unsafeUninitializedCapacity: w * h * 3) { target, initialized in
                for y in 0..<w {
                    let col = reverseDestination ? w - 1 - y : y
                    for x in 0..<h {
                        let row = reverseSource ? h - 1 - x : x
                        let s = source + row * stride + col * 3
                        let d = (y * h + x) * 3
                        target[d] = s[0]
                        target[d + 1] = s[1]
                        target[d + 2] = s[2]
                    }
                }
                initialized = w * h * 3
            }
            return Image(width: h, height: w, format: .rgb, pixels: pixels)
        }
    }

    private static func copy(
        _ source: UnsafePointer<UInt8>, stride: Int, width w: Int, height h: Int, horizontal: Bool, vertical: Bool
    ) -> Image {
        let rowBytes = w * 3
        let pixels = [UInt8](unsafeUninitializedCapacity: rowBytes * h) { target, initialized in
            for y in 0..<h {
                let s = source + (vertical ? h - 1 - y : y) * stride
                let d = target.baseAddress! + y * rowBytes
                if !horizontal {
                    d.update(from: s, count: rowBytes)
                } else {
                    for x in 0..<w {
                        let sp = s + (w - 1 - x) * 3
                        d[x * 3] = sp[0]
                        d[x * 3 + 1] = sp[1]
                        d[x * 3 + 2] = sp[2]
                    }
                }
            }
            initialized = rowBytes * h
        }
        return Image(width: w, height: h, format: .rgb, pixels: pixels)
    }
}
