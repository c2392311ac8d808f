import PadBench
import PadProfiles

/// Profile YAML (Yams, then ProfileLoader's checks) against the real output catalogue.
let catalogue = EstimatorCatalog.outputs()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzProfile(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let text = String(decoding: UnsafeBufferPointer(start: data, count: size), as: UTF8.self)
    _ = try? ProfileLoader(catalogue: catalogue).load(yaml: text, file: "fuzz.yaml")
    return 0
}
