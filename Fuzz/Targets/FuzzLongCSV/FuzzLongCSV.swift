import FuzzSupport
import PadImport

/// The longCSV vendor importer on a scratch file.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVendor(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = ScratchFile.write(UnsafeRawBufferPointer(start: data, count: size), name: "long.csv")
    _ = try? VendorImporter(format: .longCSV).read([path])
    return 0
}
