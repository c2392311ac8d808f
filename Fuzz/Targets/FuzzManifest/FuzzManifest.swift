import FuzzSupport
import PadDataset

/// A dataset manifest (the shared CSV reader, path rules, face boxes) loaded from a folder.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzManifest(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let root = ScratchFile.folder("manifest")
    let path = root + "/manifest.csv"
    FileManagerShim.write(UnsafeRawBufferPointer(start: data, count: size), to: path)
    if let dataset = try? DatasetLoader().load(root, layout: .manifest) { _ = DatasetCheck.run(dataset, decode: false) }
    return 0
}
