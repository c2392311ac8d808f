import PadVocabulary

/// Byte-level helpers shared by the text readers.
package enum TextBytes {
    /// True when `bytes` start with the UTF-8 byte-order mark EF BB BF.
    package static func hasBOM(_ bytes: [UInt8]) -> Bool {
        bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF
    }

    /// `bytes` without a leading UTF-8 byte-order mark.
    package static func withoutBOM(_ bytes: [UInt8]) -> ArraySlice<UInt8> { hasBOM(bytes) ? bytes[3...] : bytes[...] }

    /// Lines split at LF, each without a trailing CR (CRLF and LF files read alike), BOM skipped;
    /// the 1-based line number comes with each.
    package static func lines(_ bytes: [UInt8]) -> [(number: Int, text: ArraySlice<UInt8>)] {
        var result: [(Int, ArraySlice<UInt8>)] = []
        var number = 1
        var rest = withoutBOM(bytes)
        while !rest.isEmpty {
            let end = rest.firstIndex(of: 0x0A) ?? rest.endIndex
            var text = rest[rest.startIndex..<end]
            if text.last == 0x0D { text = text.dropLast() }
            result.append((number, text))
            number += 1
            rest = end < rest.endIndex ? rest[(end + 1)...] : []
        }
        return result
    }

    /// `inf`, `+inf`, `-inf`, `infinity` in any case: the only number texts that may parse as
    /// infinite (strtod and `Double(_:)` give infinity for `1e400` too, an overflow, not a value).
    package static func isInfinityLiteral<C: Collection>(_ field: C) -> Bool where C.Element == UInt8 {
        var bytes = Array(field)
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { bytes.removeFirst() }
        let lower = String(decoding: bytes.map { $0 | 0x20 }, as: UTF8.self)
        return lower == "inf" || lower == "infinity"
    }

    /// ``PadVocabulary/MessageText/quote(_:limit:)``: at most `limit` characters of `text` for a
    /// message, control characters and line breaks escaped, an ellipsis when cut.
    package static func quote(_ text: String, limit: Int = 200) -> String { MessageText.quote(text, limit: limit) }

    /// ``quote(_:limit:)`` of bytes read as UTF-8 (invalid sequences shown as U+FFFD); reads at
    /// most 4 x `limit` + 4 bytes of them.
    package static func quote<Bytes: Collection>(bytes: Bytes, limit: Int = 200) -> String
    where Bytes.Element == UInt8 {
        let head = bytes.prefix(4 * limit + 4)
        let text = String(decoding: Array(head), as: UTF8.self)
        let quoted = quote(text, limit: limit)
        return head.count < bytes.count && !quoted.hasSuffix("...") ? quoted + "..." : quoted
    }
}
