import Foundation
import Testing
@testable import PadImage
@testable import PadVideo
import TestSupport

/// padbench's frames against the `ffmpeg` command line's, byte for byte, in every container
/// padbench reads, with B-frame reordering and the display matrix's rotations.
@Suite struct FFmpegByteIdentityTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var file: String
        var codec: [String]
        /// A display matrix written into the file (MP4/MOV), and whether it swaps width and height.
        var matrix: [Int32]? = nil
        var rotated = false
        /// 64 pixels wide: RGB rows of 192 bytes, converted straight into the image; 70 wide: rows of
        /// 210 bytes, converted into the converter's aligned buffer and copied.
        var width = 64
        var testDescription: String { file }
    }

    // Display matrices (16.16 fixed point, w in 2.30): 90 degrees clockwise (ffmpeg: transpose=clock),
    // 90 counter-clockwise (cclock), 180 (hflip and vflip), and 90 clockwise mirrored (cclock_flip).
    static let clockwise: [Int32] = [0, 0x10000, 0, -0x10000, 0, 0, 0, 0, 0x4000_0000]
    static let counterClockwise: [Int32] = [0, -0x10000, 0, 0x10000, 0, 0, 0, 0, 0x4000_0000]
    static let halfTurn: [Int32] = [-0x10000, 0, 0, 0, -0x10000, 0, 0, 0, 0x4000_0000]
    static let mirrored: [Int32] = [0, 0x10000, 0, 0x10000, 0, 0, 0, 0, 0x4000_0000]
    // No scale in the first column: av_display_rotation_get gives NaN and ffmpeg turns nothing, though
    // matrix[4] < 0 (a vflip for an angle of 0).
    static let withoutAngle: [Int32] = [0, 0, 0, 0, -0x10000, 0, 0, 0, 0x4000_0000]

    static let cases: [Case] = [
        Case(file: "mpeg4-bframes.avi", codec: ["-c:v", "mpeg4", "-bf", "2", "-q:v", "4"]),
        Case(file: "mjpeg.avi", codec: ["-c:v", "mjpeg", "-q:v", "3"]),
        Case(file: "h264.mp4", codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-bf", "3"]),
        Case(file: "h264-70-wide.mp4", codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p"], width: 70),
        Case(file: "mpeg4-70-wide.avi", codec: ["-c:v", "mpeg4", "-q:v", "4"], width: 70),
        Case(
            file: "h264-clockwise.mp4", codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p"], matrix: clockwise,
            rotated: true),
        Case(file: "mjpeg-counterclockwise.mov", codec: ["-c:v", "mjpeg"], matrix: counterClockwise, rotated: true),
        Case(file: "mpeg4-halfturn.mov", codec: ["-c:v", "mpeg4"], matrix: halfTurn),
        Case(file: "mpeg4-mirrored.mp4", codec: ["-c:v", "mpeg4"], matrix: mirrored, rotated: true),
        Case(file: "h264-no-angle.mp4", codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p"], matrix: withoutAngle),
        Case(file: "ffv1.mkv", codec: ["-c:v", "ffv1"]),
        Case(file: "vp9.webm", codec: ["-c:v", "libvpx-vp9", "-deadline", "realtime", "-b:v", "200k"]),
    ]

    @Test(arguments: cases)
    func framesEqualTheCommandLines(_ clip: Case) throws {
        let folder = try FFmpegCLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/" + clip.file
        try FFmpegCLI.makeClip(path, size: "\(clip.width)x48", codec: clip.codec)
        if let matrix = clip.matrix { try FFmpegCLI.setDisplayMatrix(path, matrix) }
        let decoder = VideoDecoder()
        let info = try decoder.probe(path: path)
        #expect(info.frameCount == 12)
        #expect(info.width == clip.width && info.height == 48)
        let indices = [0, 3, 7, 11]
        var frames: [DecodedFrame] = []
        try decoder.decode(path: path, frames: indices) { frames.append($0) }
        #expect(frames.map(\.index) == indices)
        // testsrc2 at 10 frames/s: frame n is shown at n / 10 s.
        #expect(frames.map { ($0.seconds * 10).rounded() } == indices.map(Double.init))
        let reference = try FFmpegCLI.referenceFrames(path, indices: indices, frameBytes: clip.width * 48 * 3)
        for (frame, expected) in zip(frames, reference) {
            #expect(frame.image.width == (clip.rotated ? 48 : clip.width))
            #expect(frame.image.height == (clip.rotated ? clip.width : 48))
            #expect(frame.image.pixels == expected, "frame \(frame.index) of \(clip.file)")
        }
    }
}

/// A clip trimmed without re-encoding (`ffmpeg -ss T -i in.mp4 -c copy out.mp4`, as phone editors
/// trim) starts with an edit list: the packets before T are decoded only to reach it and their
/// frames are not shown. padbench lists and numbers the frames ffmpeg shows, byte for byte.
@Suite struct TrimmedClipTests {
    @Test func anEditListHidesTheFramesBeforeTheCut() throws {
        let folder = try FFmpegCLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let whole = folder + "/whole.mp4", trimmed = folder + "/trimmed.mp4"
        try FFmpegCLI.makeClip(whole, frames: 20, codec: ["-c:v", "libx264", "-pix_fmt", "yuv420p", "-bf", "2"])
        try FFmpegCLI.run(["-y", "-ss", "0.75", "-i", whole, "-c", "copy", trimmed])
        let frameBytes = 64 * 48 * 3
        let all = try FFmpegCLI.run([
            "-threads", "1", "-i", trimmed, "-vsync", "passthrough", "-pix_fmt", "rgb24", "-f", "rawvideo", "-",
        ])
        let shown = all.count / frameBytes
        #expect(shown > 0 && shown < 20 && all.count % frameBytes == 0, "ffmpeg shows \(shown) frames")
        let decoder = VideoDecoder()
        let info = try decoder.probe(path: trimmed)
        #expect(info.frameCount == shown)
        let indices = Array(0..<shown)
        var frames: [DecodedFrame] = []
        try decoder.decode(path: trimmed, frames: indices) { frames.append($0) }
        #expect(frames.map(\.index) == indices)
        let bytes = [UInt8](all)
        for frame in frames {
            let expected = Array(bytes[(frame.index * frameBytes)..<((frame.index + 1) * frameBytes)])
            #expect(frame.image.pixels == expected, "frame \(frame.index)")
        }
    }
}

/// A stream whose time stamps go backwards (frame 2 muxed at 0.35 s, frame 3 at 0.30 s, with
/// FFmpeg's `setts` bitstream filter): MJPEG cannot reorder, so the decoder hands frames over in
/// packet order and frame 2 is the one stamped 0.35 s, as ffmpeg's `best_effort_timestamp` says.
/// The listing sorted the stamps and gave frames 2 and 3 each other's times.
@Suite struct NonMonotonicTimeTests {
    @Test func frameTimesAreTheDecodersOwnInPacketOrder() throws {
        let folder = try FFmpegCLI.temporaryFolder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = folder + "/backwards.mkv"
        try FFmpegCLI.makeClip(
            path, frames: 6, codec: ["-c:v", "mjpeg"], extra: ["-bsf:v", "setts=pts=if(eq(N\\,2)\\,PTS+150\\,PTS)"])
        let decoder = VideoDecoder()
        let info = try decoder.probe(path: path)
        let expected = [0, 0.1, 0.35, 0.3, 0.4, 0.5]
        #expect(
            info.frameTimes.count == 6 && zip(info.frameTimes, expected).allSatisfy { abs($0 - $1) < 1e-9 },
            "\(info.frameTimes)")
        var decoded: [Int: Double] = [:]
        try decoder.decode(path: path, frames: Array(0..<6)) { decoded[$0.index] = $0.seconds }
        #expect((0..<6).map { decoded[$0] } == info.frameTimes.map { Optional($0) })
        #expect(VideoDecoder.bestEffort([(0, 0), (100, 100), (350, 350), (300, 300)]) == [0, 100, 350, 300])
        // The pts go backwards and the dts do not: from the first backward pts on, libavcodec
        // takes the dts.
        #expect(VideoDecoder.bestEffort([(50, 0), (10, 1), (5, 2)]) == [50, 1, 2])
    }
}

@Suite struct FrameSamplingTests {
    @Test func evenSpreadTakesTheMiddleOfEachPart() {
        // 150 frames (OULU-NPU's 5 s at 30 fps) in 10 parts of 15: middles at 7, 22, ..., 142.
        #expect(FrameSampling.count(10).indices(frameCount: 150) == [7, 22, 37, 52, 67, 82, 97, 112, 127, 142])
        // 12 frames in 4 parts of 3: floor((2i + 1) * 12 / 8) = 1, 4, 7, 10.
        #expect(FrameSampling.count(4).indices(frameCount: 12) == [1, 4, 7, 10])
        #expect(FrameSampling.count(20).indices(frameCount: 3) == [0, 1, 2])
        #expect(FrameSampling.count(3).indices(frameCount: 0) == [])
    }

    @Test func stepTakesEveryKthFrameFromTheFirst() {
        #expect(FrameSampling.step(5).indices(frameCount: 12) == [0, 5, 10])
        #expect(FrameSampling.step(1).indices(frameCount: 3) == [0, 1, 2])
    }
}

@Suite struct VideoEncoderTests {
    static func frames(_ count: Int, width: Int = 48, height: Int = 32) -> [Image] {
        (0..<count).map { t in
            var image = Image(width: width, height: height, format: .rgb)
            // Smooth ramps (4:2:0 chroma keeps them), shifted by the frame number.
            for y in 0..<height {
                for x in 0..<width {
                    let i = (y * width + x) * 3
                    image.pixels[i] = UInt8(x * 4 + t * 3)
                    image.pixels[i + 1] = UInt8(y * 6 + t)
                    image.pixels[i + 2] = UInt8(128 + t)
                }
            }
            return image
        }
    }

    @Test func mjpegClipDecodesBackWithItsFrameCount() throws {
        let bytes = try VideoEncoder.encode(Self.frames(7), rate: 10, codec: .mjpeg)
        #expect(try VideoEncoder.encode(Self.frames(7), rate: 10, codec: .mjpeg) == bytes) // deterministic
        let info = try VideoDecoder().probe(bytes: bytes)
        #expect(info.frameCount == 7 && info.codec == "mjpeg" && info.container == "avi")
        #expect(info.frameTimes.map { ($0 * 10).rounded() } == [0, 1, 2, 3, 4, 5, 6])
        var got: [Int] = []
        try VideoDecoder().decode(bytes: bytes, frames: [6, 2]) { got.append($0.index) }
        #expect(got == [2, 6])
    }

    @Test func ffv1IsLosslessUpToTheYUV420Conversion() throws {
        let frames = Self.frames(3)
        let bytes = try VideoEncoder.encode(frames, rate: 5, codec: .ffv1)
        #expect(try VideoDecoder().probe(bytes: bytes).container == "matroska,webm")
        var decoded: [Image] = []
        try VideoDecoder().decode(bytes: bytes, frames: [0, 1, 2]) { decoded.append($0.image) }
        // 4:2:0 halves the chroma resolution: pixels differ from the source, but by a bounded amount.
        let worst = zip(decoded[1].pixels, frames[1].pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(decoded.count == 3)
        #expect(worst > 0 && worst <= 8, "worst \(worst)")
    }
}

@Suite struct VideoLimitTests {
    static func clip() throws -> [UInt8] {
        try VideoEncoder.encode(VideoEncoderTests.frames(12), rate: 10, codec: .mjpeg)
    }

    @Test func framesOverThePixelLimitAreRefusedBeforeDecoding() throws {
        let decoder = VideoDecoder(limits: VideoLimits(maxPixels: 48 * 32 - 1))
        #expect(throws: ImageError.tooLarge(width: 48, height: 32, limit: 48 * 32 - 1)) {
            try decoder.probe(bytes: try Self.clip())
        }
    }

    @Test func moreFramesThanTheLimitIsTooLarge() throws {
        let decoder = VideoDecoder(limits: VideoLimits(maxFrames: 5))
        #expect(throws: ImageError.overLimit("video has more than 5 frames, the limit")) {
            try decoder.probe(bytes: try Self.clip())
        }
        #expect(throws: ImageError.overLimit("video has more than 5 frames, the limit")) {
            try decoder.decode(bytes: try Self.clip(), frames: [11]) { _ in }
        }
    }

    /// The decode budget counts every frame decoded up to the last one asked for (48 x 32 = 1,536
    /// pixels each): frames 0-3 fit 4 x 1,536, frame 4 needs a fifth decoded frame and is refused
    /// before any frame is decoded, without calling `body`.
    @Test func decodingPastTheBudgetIsTooLargeBeforeAnyFrame() throws {
        let decoder = VideoDecoder(limits: VideoLimits(maxDecodedPixels: 4 * 48 * 32))
        var seen: [Int] = []
        try decoder.decode(bytes: try Self.clip(), frames: [1, 3]) { seen.append($0.index) }
        #expect(seen == [1, 3])
        let error = #expect(throws: ImageError.self) {
            try decoder.decode(bytes: try Self.clip(), frames: [0, 4]) { seen.append($0.index) }
        }
        #expect(error?.statusCode == .tooLarge)
        #expect(
            error?.description
                == "decoding the video up to the last frame measured takes 7680 pixels or more, over the "
                + "decode budget of 6144 (--max-decoded-pixels)")
        #expect(seen == [1, 3])
    }

    @Test func longerThanTheDurationLimitIsTooLarge() throws {
        let decoder = VideoDecoder(limits: VideoLimits(maxSeconds: 0.5))
        let error = #expect(throws: ImageError.self) { try decoder.probe(bytes: try Self.clip()) }
        #expect(error?.statusCode == .tooLarge)
        #expect(error?.description.hasSuffix("over the limit of 0.5 s") == true)
    }

    @Test func aFrameBeyondTheStreamIsADecodeErrorWithTheReason() throws {
        let error = #expect(throws: ImageError.self) {
            try VideoDecoder().decode(bytes: try Self.clip(), frames: [3, 12]) { _ in }
        }
        #expect(error?.statusCode == .decodeError)
        #expect(error?.description.hasPrefix("the stream ends after 12 frames; frame 12 was asked for") == true)
    }

    /// FuzzVideo's input (Fuzz/Corpus/FuzzVideo/leak-codec-context-on-failed-open): a stream whose
    /// decoder does not open, or whose rotation is refused, threw out of `VideoStream.init` after the
    /// codec context was allocated, and an init that throws early never runs `deinit`: 2 MB leaked
    /// per file (LeakSanitizer, `make fuzz`; `make test-asan` runs this test). Now a clean error.
    @Test func aStreamWhoseDecoderFailsToOpenIsAnErrorWithoutALeak() throws {
        let path =
            URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path + "/Fuzz/Corpus/FuzzVideo/leak-codec-context-on-failed-open"
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let decoder = VideoDecoder(limits: VideoLimits(maxPixels: 1_000_000, maxFrames: 300, maxSeconds: 60))
        #expect(throws: ImageError.self) { try decoder.probe(bytes: bytes) }
        #expect(throws: ImageError.self) { try decoder.decode(bytes: bytes, frames: [0, 2]) { _ in } }
    }

    @Test func aContainerThatNamesTheWrongCodecIsADecodeError() throws {
        // The AVI's stream header and format say MJPG; rename the codec to XVID (MPEG-4 part 2):
        // the demuxer believes it, the MPEG-4 decoder cannot read JPEG data.
        var bytes = try Self.clip()
        for at in 0..<(bytes.count - 4) where Array(bytes[at..<(at + 4)]) == Array("MJPG".utf8) {
            bytes.replaceSubrange(at..<(at + 4), with: Array("XVID".utf8))
        }
        let error = #expect(throws: ImageError.self) {
            try VideoDecoder().decode(bytes: bytes, frames: [0, 5]) { _ in }
        }
        #expect(error?.statusCode == .decodeError)
    }

    @Test func bytesThatAreNoVideoAreUnsupported() {
        let error = #expect(throws: ImageError.self) { try VideoDecoder().probe(bytes: Array("not a video".utf8)) }
        #expect(error?.statusCode == .unsupportedFormat)
        #expect(throws: ImageError.missingFile(path: "/nonexistent.avi", reason: "no such file")) {
            try VideoDecoder().probe(path: "/nonexistent.avi")
        }
    }

    @Test func anImageFileNamedAsAVideoIsNotReadAsOne() throws {
        // A JPEG is not an AVI: only the AVI, MOV/MP4 and Matroska demuxers may open a file.
        let jpeg = try ImageEncoder.jpeg(VideoEncoderTests.frames(1)[0])
        let error = #expect(throws: ImageError.self) { try VideoDecoder().probe(bytes: jpeg) }
        #expect(error?.statusCode == .unsupportedFormat)
    }
}

/// The committed sample's synthetic clips (written by `dataset synth --video`, MPEG-4 part 2 in
/// AVI) decode to the `ffmpeg` command line's frames, every frame.
@Suite struct SampleClipTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test func everyFrameOfEverySampleClipEqualsTheCommandLines() throws {
        let folder = Self.root + "/datasets/sample/video"
        let clips = (FileManager.default.enumerator(atPath: folder)?.allObjects as? [String] ?? [])
            .filter { $0.hasSuffix(".avi") }.sorted()
        #expect(clips.count == 8)
        for clip in clips {
            let path = folder + "/" + clip
            let info = try VideoDecoder().probe(path: path)
            #expect(info.frameCount == 8 && info.codec == "mpeg4" && info.width == 320 && info.height == 240)
            let indices = Array(0..<info.frameCount)
            var frames: [[UInt8]] = []
            try VideoDecoder().decode(path: path, frames: indices) { frames.append($0.image.pixels) }
            let reference = try FFmpegCLI.referenceFrames(path, indices: indices, frameBytes: 320 * 240 * 3)
            #expect(frames == reference, "\(clip)")
        }
    }
}

/// A damaged MPEG-4 AVI decoded with two threads is an error, never a crash: frame threading
/// with `AV_EF_EXPLODE` aborted the process (FFmpeg 5.1's `Assertion frame->buf[0] failed at
/// libavcodec/decode.c`) on every one of 12 truncated or byte-flipped copies of a sample clip,
/// so `bench --concurrency 1` on 2 CPUs (and the last sample of any run) died with SIGABRT.
@Suite struct DamagedVideoThreadsTests {
    @Test func truncatedAndFlippedClipsFailWithTwoThreads() throws {
        let clip = SampleClipTests.root + "/datasets/sample/video/eval/bonafide/clip000000.avi"
        let bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: clip)))
        let folder = TestFolder.root + "/padbench-damaged-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        var failures = 0
        for k in 0..<12 {
            var damaged = bytes
            if k < 6 {
                damaged = Array(bytes.prefix(bytes.count * (3 + k) / 10))
            } else {
                // 20 bytes inverted at fixed positions past the headers.
                for j in 0..<20 { damaged[2000 + (j * 7919 + k * 104_729) % (bytes.count - 2000)] ^= 0xFF }
            }
            let path = folder + "/d\(k).avi"
            try Data(damaged).write(to: URL(fileURLWithPath: path))
            do {
                var frames = 0
                try VideoDecoder().decode(path: path, frames: Array(0..<8), threads: 2) { _ in frames += 1 }
            } catch {
                failures += 1
            }
        }
        // Every copy either fails with an error or decodes what it holds; none ends the process.
        #expect(failures >= 6, "\(failures) of 12 failed")
    }
}
