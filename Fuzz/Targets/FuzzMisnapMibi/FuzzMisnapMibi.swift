import FuzzSupport
import PadImport

/// The misnapMibi vendor importer on a scratch file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVendor(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = ScratchFile.write(UnsafeRawBufferPointer(start: data, count: size), name: "0001.json")
    _ = try? VendorImporter(format: .misnapMibi).read([path])
    return 0
}
