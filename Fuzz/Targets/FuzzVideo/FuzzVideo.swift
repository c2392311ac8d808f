import PadVideo

/// The container and codec path: FFmpeg's demuxers (AVI, MOV/MP4, Matroska/WebM) and decoders
/// reading the input from memory through padbench's AVIOContext, listing then decoding the first
/// frames to RGB, with small limits so that a lying header cannot make the run allocate much.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVideo(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let bytes = Array(UnsafeBufferPointer(start: data, count: size))
    let decoder = VideoDecoder(limits: VideoLimits(maxPixels: 1_000_000, maxFrames: 300, maxSeconds: 60))
    guard let info = try? decoder.probe(bytes: bytes) else {
        // Decoding without a listing still has to fail cleanly.
        try? decoder.decode(bytes: bytes, frames: [0, 2]) { _ in }
        return 0
    }
    // Two decoder threads, as a sample of a run with spare cores gets: FFmpeg's frame threading
    // with AV_EF_EXPLODE aborts on damaged MPEG-4, and padbench must never reach that assertion.
    let wanted = FrameSampling.count(3).indices(frameCount: info.frameCount)
    try? decoder.decode(bytes: bytes, frames: wanted + [info.frameCount], threads: 2) { frame in
        precondition(frame.image.pixels.count == frame.image.width * frame.image.height * 3)
    }
    return 0
}
