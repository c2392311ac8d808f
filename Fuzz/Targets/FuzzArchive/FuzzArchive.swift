import FuzzSupport
import PadArchive

/// The zstd + tar archive reader with small limits, reading every member (and its CSV parse).
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzArchive(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let path = ScratchFile.write(UnsafeRawBufferPointer(start: data, count: size), name: "results.tar.zst")
    guard let reader = try? ResultArchiveReader(path: path, limits: ArchiveLimits(totalBytes: 64 << 20, memberBytes: 8 << 20)) else { return 0 }
    for name in reader.entryNames {
        if let bytes = try? reader.entry(named: name), name.hasSuffix(".csv") { _ = try? CSVTable(bytes: bytes, path: name) }
    }
    return 0
}
