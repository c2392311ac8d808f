import FuzzSupport
import PadImport

/// The idemiaStatus vendor importer on a scratch file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVendor(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = ScratchFile.write(UnsafeRawBufferPointer(start: data, count: size), name: "status.csv")
    _ = try? VendorImporter(format: .idemiaStatus).read([path])
    return 0
}
