/// Reads the entries of an in-memory tar stream (ustar and pax `path` records).
///
/// ```swift
/// for entry in try TarReader.entries(of: tarBytes, path: "results.tar.zst") { print(entry.name, entry.size) }
/// ```
public enum TarReader {
    public struct Entry: Sendable {
        public var name: String
        public var range: Range<Int>
        public var size: Int { range.count }
    }

    public static func entries(of bytes: [UInt8], path: String) throws -> [Entry] {
        var entries: [Entry] = []
        var offset = 0
        var paxName: String?
        while true {
            guard offset + 512 <= bytes.count else {
                throw ArchiveError.tar(path: path, message: "truncated tar stream at byte \(offset)")
            }
            let header = bytes[offset..<(offset + 512)]
            if header.allSatisfy({ $0 == 0 }) { return entries }  // end-of-archive block
            let stored = parseOctal(header, from: offset + 148, count: 8)
            var sum = 0
            for i in 0..<512 { sum += (148..<156).contains(i) ? 0x20 : Int(bytes[offset + i]) }
            guard let stored, stored == sum else {
                throw ArchiveError.tar(path: path, message: "not a tar stream (bad header checksum at byte \(offset))")
            }
            guard let size = parseOctal(header, from: offset + 124, count: 12) else {
                throw ArchiveError.tar(path: path, message: "bad size field at byte \(offset)")
            }
            let type = bytes[offset + 156]
            let dataStart = offset + 512
            guard dataStart + size <= bytes.count else {
                throw ArchiveError.tar(path: path, message: "truncated tar entry at byte \(offset)")
            }
            let nameField = bytes[offset..<(offset + 100)].prefix { $0 != 0 }
            let name = String(decoding: nameField, as: UTF8.self)
            if type == UInt8(ascii: "x") {
                paxName = parsePaxPath(bytes[dataStart..<(dataStart + size)])
            } else if type == UInt8(ascii: "0") || type == 0 {
                entries.append(Entry(name: paxName ?? name, range: dataStart..<(dataStart + size)))
                paxName = nil
            }
            offset = dataStart + (size + 511) / 512 * 512
        }
    }

    static func parseOctal(_ bytes: ArraySlice<UInt8>, from start: Int, count: Int) -> Int? {
        var value = 0
        var digits = 0
        for b in bytes[start..<(start + count)] {
            if b == 0 || b == 0x20 { if digits > 0 { break } else { continue } }
            guard b >= 0x30, b <= 0x37 else { return nil }
            value = value * 8 + Int(b - 0x30)
            digits += 1
        }
        return digits > 0 ? value : nil
    }

    static func parsePaxPath(_ record: ArraySlice<UInt8>) -> String? {
        let text = String(decoding: record, as: UTF8.self)
        for line in text.split(separator: "\n") {
            guard let space = line.firstIndex(of: " ") else { continue }
            let keyValue = line[line.index(after: space)...]
            if keyValue.hasPrefix("path=") { return String(keyValue.dropFirst(5)) }
        }
        return nil
    }
}
