import FuzzSupport
import PadMetrics

/// Score files (every format ScoreFileReader detects) read from a scratch file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzScoreFile(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = ScratchFile.write(UnsafeRawBufferPointer(start: data, count: size), name: "scores.csv")
    if let scores = try? ScoreFileReader().read([path]) { _ = scores }
    return 0
}
