import PadExternal

/// One line an external program writes, read every way padbench reads one: an answer for sample
/// "a.jpg" with two outputs, the answers of a pipelined or batched line, and the protocol options
/// of a `describe` answer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzExternalAnswer(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let line = Array(UnsafeBufferPointer(start: data, count: size))
    _ = try? ExternalEstimator.parseAnswer(line, id: "a.jpg", outputs: ["score", "quality"])
    _ = try? ExternalEstimator.identifiedAnswers(line, outputs: ["score", "quality"])
    _ = try? ExternalProtocolOptions.read(line)
    return 0
}
