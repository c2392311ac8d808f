// decode-timing: times padbench's JPEG/PNG decode alone, the way tjbench times libjpeg-turbo,
// so `make benchmark` can print the ratio of the two on the same file in the same run.
//
// Usage: decode-timing FILE [SECONDS]
// Decodes FILE from memory (like tjbench, no file I/O in the timed loop) with the same
// `ImageDecoder` that `bench` uses (TurboJPEG, TJFLAG_STOPONWARNING, RGB output, EXIF
// orientation), first for 1 s of warm-up (as tjbench warms up), then for SECONDS (default 5,
// tjbench's -benchtime default). Prints one JSON line: frames, the mean and median ms per
// frame, and Mpixels/s (tjbench's unit: width x height / 1e6 per second).
import Foundation
import PadImage

@main
struct DecodeTiming {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 2, let data = FileManager.default.contents(atPath: arguments[1]) else {
            FileHandle.standardError.write(Data("usage: decode-timing FILE [SECONDS]\n".utf8))
            exit(64)
        }
        let seconds = arguments.count > 2 ? Double(arguments[2]) ?? 5 : 5
        let bytes = [UInt8](data)
        let decoder = ImageDecoder()
        let first = try decoder.decode(bytes)
        _ = run(decoder, bytes, for: 1)
        let frameSeconds = run(decoder, bytes, for: seconds)
        let sorted = frameSeconds.sorted()
        let mean = frameSeconds.reduce(0, +) / Double(frameSeconds.count)
        let median = sorted[sorted.count / 2]
        let megapixelsPerSecond = Double(first.width * first.height) / 1e6 / mean
        print(
            #"{"file":"\#(arguments[1])","width":\#(first.width),"height":\#(first.height),"frames":\#(frameSeconds.count),"#
                + #""mean_ms":\#(mean * 1e3),"median_ms":\#(median * 1e3),"mpixels_per_s":\#(megapixelsPerSecond)}"#
        )
    }

    /// Decodes repeatedly for at least `seconds`; returns each frame's wall time in seconds.
    static func run(_ decoder: ImageDecoder, _ bytes: [UInt8], for seconds: Double) -> [Double] {
        var times: [Double] = []
        let clock = ContinuousClock()
        let start = clock.now
        while clock.now - start < .seconds(seconds) {
            let t0 = clock.now
            let image = try? decoder.decode(bytes)
            let elapsed = clock.now - t0
            precondition(image != nil, "decode failed")
            times.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        return times
    }
}
