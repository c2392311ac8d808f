import PadEstimators

/// `--onnx` spec YAML (Yams, then OnnxModelSpec's checks): every input parses or is refused with a
/// located problem, never a crash.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOnnxSpec(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? OnnxModelSpec.parse(text, file: "fuzz.yaml")
    return 0
}
