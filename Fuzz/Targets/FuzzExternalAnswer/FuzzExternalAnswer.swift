import PadExternal

/// One answer line of an external estimator, parsed for sample "a.jpg" with two outputs.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExternalAnswer(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let line = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? ExternalEstimator.parseAnswer(line, id: "a.jpg", outputs: ["score", "quality"])
    return 0
}
