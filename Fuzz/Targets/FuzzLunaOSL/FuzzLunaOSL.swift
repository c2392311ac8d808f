import FuzzSupport
import PadImport

/// The lunaOSL vendor importer on a scratch file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVendor(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = ScratchFile.write(UnsafeRawBufferPointer(start: data, count: size), name: "luna.json")
    _ = try? VendorImporter(format: .lunaOSL).read([path])
    return 0
}
