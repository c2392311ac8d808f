import FuzzSupport
import PadArchive

/// The tar writer and reader over zstd, round trip: the input is cut into members (name length,
/// name, contents length, contents); every member the writer accepts must come back from the
/// reader with the same name and the same bytes, in order, and nothing else. A member the writer
/// refuses (empty name, NUL byte, over 4096 bytes) is left out. A mismatch stops the fuzzer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTarRoundTrip(_ data: UnsafePointer<UInt8>, _ size: Int) -> Int32 {
    let input = Array(UnsafeBufferPointer(start: data, count: size))
    let members = TarFuzzInput.members(input)
    let path = ScratchFile.path(name: "round-trip.tar.zst")
    var written: [(String, [UInt8])] = []
    do {
        let file = try FileSink(path: path)
        let zstd = try ZstdWriter(into: file, path: path, level: 1)
        let tar = TarWriter(into: zstd)
        for (name, contents) in members {
            do {
                try tar.add(name: name, contents: contents, modified: 1_700_000_000)
                written.append((name, contents))
            } catch {}
        }
        try tar.finish()
        try zstd.finish()
        try file.close()
    } catch {
        fatalError("writing the archive failed: \(error)")
    }
    var read: [(String, [UInt8])] = []
    do {
        let reader = TarReader(stream: try ZstdStream(path: path, limit: 1 << 30), totalLimit: 1 << 30)
        while let entry = try reader.next() {
            var bytes: [UInt8] = []
            try reader.readData { bytes.append(contentsOf: $0) }
            guard bytes.count == entry.size else { fatalError("member \(entry.name): \(bytes.count) of \(entry.size)") }
            read.append((entry.name, bytes))
        }
    } catch {
        fatalError("reading back what the writer wrote failed: \(error)")
    }
    guard read.count == written.count else { fatalError("wrote \(written.count) members, read \(read.count)") }
    for (w, r) in zip(written, read) where w.0 != r.0 || w.1 != r.1 {
        fatalError("member '\(w.0.prefix(80))' came back as '\(r.0.prefix(80))' (\(r.1.count) of \(w.1.count) bytes)")
    }
    return 0
}

/// The members a fuzz input describes: repeated (1 byte name length, name bytes as UTF-8 with
/// invalid sequences replaced, 2 bytes contents length, contents); a name length of 255 takes
/// the next byte x 20 as its length so long (pax) names are reached.
enum TarFuzzInput {
    static func members(_ input: [UInt8]) -> [(String, [UInt8])] {
        var result: [(String, [UInt8])] = []
        var i = 0
        func take(_ n: Int) -> ArraySlice<UInt8> {
            let end = min(input.count, i + n)
            defer { i = end }
            return input[i..<end]
        }
        while i < input.count, result.count < 64 {
            var nameLength = Int(take(1).first ?? 0)
            if nameLength == 255 { nameLength = Int(take(1).first ?? 0) * 20 }
            let name = String(decoding: take(nameLength), as: UTF8.self)
            let lengthBytes = take(2)
            let length = lengthBytes.reduce(0) { $0 << 8 | Int($1) }
            result.append((name, Array(take(length))))
        }
        return result
    }
}
