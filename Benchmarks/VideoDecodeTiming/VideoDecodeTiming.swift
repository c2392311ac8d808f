// video-decode-timing: times padbench's video decode alone (every frame of a file, to upright RGB,
// with FFmpeg's decoder threads), so `make benchmark` can print it beside
// `ffmpeg -benchmark -threads T -i FILE -pix_fmt rgb24 -f null -` on the same file in the same run.
//
// Usage: video-decode-timing FILE THREADS [PASSES]
// Lists the file once (as loading a dataset does), then decodes all its frames PASSES times
// (default 3) with the same `VideoDecoder` that `bench` uses, and prints one JSON line: frames per
// pass, each pass's seconds, and frames/s of the fastest pass (ffmpeg's figure is also the
// fastest of as many passes).
import Foundation
import PadVideo

@main
struct VideoDecodeTiming {
    static func main() throws {
        let arguments = CommandLine.arguments
        guard arguments.count >= 3, let threads = Int(arguments[2]), threads >= 1 else {
            FileHandle.standardError.write(Data("usage: video-decode-timing FILE THREADS [PASSES]\n".utf8))
            exit(64)
        }
        let passes = arguments.count > 3 ? Int(arguments[3]) ?? 3 : 3
        let decoder = VideoDecoder()
        let info = try decoder.probe(path: arguments[1])
        let all = Array(0..<info.frameCount)
        var seconds: [Double] = []
        let clock = ContinuousClock()
        for _ in 0..<passes {
            var frames = 0
            let start = clock.now
            try decoder.decode(path: arguments[1], frames: all, threads: threads) { _ in frames += 1 }
            let elapsed = clock.now - start
            precondition(frames == info.frameCount, "decoded \(frames) of \(info.frameCount) frames")
            seconds.append(Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) * 1e-18)
        }
        let best = seconds.min() ?? 1
        print(
            #"{"file":"\#(arguments[1])","width":\#(info.width),"height":\#(info.height),"threads":\#(threads),"#
                + #""frames":\#(info.frameCount),"seconds":\#(seconds),"frames_per_s":\#(Double(info.frameCount) / best)}"#
        )
    }
}
