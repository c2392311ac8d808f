/// Many strings in one byte buffer: each string's UTF-8 bytes back to back and the end offset of
/// each, so a million sample ids cost their bytes plus eight bytes each instead of a `String`
/// (16 bytes) and, past 15 bytes, a heap object of its own (about 48 bytes more). Reading one
/// gives a new `String`.
///
/// ```swift
/// var ids = StringColumn()
/// ids.append("d0001/042.jpg")
/// let first = ids[0]          // "d0001/042.jpg"
/// ```
/// Built from a `[String]` (score files: ten million ids already parsed), the array is kept as
/// it is rather than copied byte by byte.
package struct StringColumn: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral {
    private var bytes: [UInt8] = []
    private var ends: [Int] = []
    /// Set when the column was made from an array of strings (nothing is appended to it then).
    private var strings: [String]?

    package init() {}

    package init(_ strings: [String]) { self.strings = strings }

    package init(arrayLiteral strings: String...) {
        for string in strings { append(string) }
    }

    package var startIndex: Int { 0 }
    package var endIndex: Int { strings?.count ?? ends.count }

    package subscript(i: Int) -> String {
        if let strings { return strings[i] }
        let start = i == 0 ? 0 : ends[i - 1]
        return bytes.withUnsafeBufferPointer { String(decoding: $0[start..<ends[i]], as: UTF8.self) }
    }

    /// The UTF-8 bytes of string `i`, without making a `String`.
    package func withUTF8<R>(_ i: Int, _ body: (UnsafeBufferPointer<UInt8>) throws -> R) rethrows -> R {
        if let strings {
            var copy = strings[i]
            return try copy.withUTF8(body)
        }
        let start = i == 0 ? 0 : ends[i - 1]
        return try bytes.withUnsafeBufferPointer { try body(UnsafeBufferPointer(rebasing: $0[start..<ends[i]])) }
    }

    /// Calls `body` with each row of `rows` and its string's UTF-8 bytes, in order: the
    /// per-row writers and fingerprints of ten million ids, with no `String` copied per row
    /// (``withUTF8(_:_:)`` per row retains and releases the column and the string).
    package func forEachUTF8(
        _ rows: Range<Int>, _ body: (Int, UnsafeBufferPointer<UInt8>) throws -> Void
    ) rethrows {
        if let strings {
            try strings.withUnsafeBufferPointer { strings in
                for i in rows {
                    let done = try strings[i].utf8.withContiguousStorageIfAvailable { try body(i, $0) }
                    if done == nil {
                        var copy = strings[i]
                        try copy.withUTF8 { try body(i, $0) }
                    }
                }
            }
            return
        }
        try bytes.withUnsafeBufferPointer { bytes in
            try ends.withUnsafeBufferPointer { ends in
                for i in rows {
                    let start = i == 0 ? 0 : ends[i - 1]
                    try body(i, UnsafeBufferPointer(rebasing: bytes[start..<ends[i]]))
                }
            }
        }
    }

    /// True when string `i` and string `j` of `other` have the same bytes.
    package func equals(_ i: Int, _ other: StringColumn, _ j: Int) -> Bool {
        withUTF8(i) { a in other.withUTF8(j) { b in a.elementsEqual(b) } }
    }

    package mutating func append(_ string: String) {
        if strings != nil {
            strings!.append(string)
            return
        }
        var string = string
        string.withUTF8 { bytes.append(contentsOf: $0) }
        ends.append(bytes.count)
    }

    package mutating func append(utf8: UnsafeBufferPointer<UInt8>) {
        if strings != nil {
            strings!.append(String(decoding: utf8, as: UTF8.self))
            return
        }
        bytes.append(contentsOf: utf8)
        ends.append(bytes.count)
    }

    /// The same strings in the order `order` gives (`order[k]` is the row that becomes row `k`).
    package func reordered(_ order: [Int]) -> StringColumn {
        if let strings { return StringColumn(order.map { strings[$0] }) }
        var copy = StringColumn()
        copy.reserveCapacity(order.count, bytesPerString: count == 0 ? 0 : bytes.count / count + 1)
        for i in order { withUTF8(i) { copy.append(utf8: $0) } }
        return copy
    }

    package mutating func reserveCapacity(_ count: Int, bytesPerString: Int = 16) {
        if strings != nil {
            strings!.reserveCapacity(count)
            return
        }
        ends.reserveCapacity(count)
        bytes.reserveCapacity(count * bytesPerString)
    }

    package static func == (a: StringColumn, b: StringColumn) -> Bool { a.elementsEqual(b) }
}

/// Strings from a small vocabulary (species, subjects, status codes) stored as one 32-bit code
/// per row and each distinct string once.
///
/// ```swift
/// var subjects = InternedStrings()
/// subjects.append("s1"); subjects.append("s2"); subjects.append("s1")
/// let (codes, names) = (subjects.codes, subjects.names)    // [0, 1, 0] and ["s1", "s2"]
/// ```
package struct InternedStrings: RandomAccessCollection, Sendable, Equatable, ExpressibleByArrayLiteral {
    package private(set) var codes: [Int32] = []
    package private(set) var names: [String] = []
    private var lookup: [String: Int32] = [:]

    package init() {}

    package init(_ strings: some Sequence<String>) {
        codes.reserveCapacity(strings.underestimatedCount)
        internEach(strings)
    }

    /// The same for strings in an array (ten million presentations of score files): a concrete
    /// array, not any sequence, so the loop is specialised here rather than walked through a
    /// generic iterator from another module; the lookup is sized once by the number of changes
    /// from one row to the next (at least the number of distinct strings), so it never rehashes.
    package init(_ strings: [String]) {
        codes.reserveCapacity(strings.count)
        var runs = 0
        strings.withUnsafeBufferPointer { strings in
            for i in strings.indices where i == 0 || strings[i] != strings[i - 1] { runs += 1 }
        }
        lookup.reserveCapacity(runs)
        names.reserveCapacity(runs)
        internEach(strings)
    }

    /// Appends each string's code. A string repeating the one before (the frames of one
    /// presentation, ten million rows) takes its code without a lookup.
    @inline(__always)
    private mutating func internEach(_ strings: some Sequence<String>) {
        var last: (string: String, code: Int32)?
        for string in strings {
            if let last, last.string == string {
                codes.append(last.code)
            } else {
                let code = code(of: string)
                codes.append(code)
                last = (string, code)
            }
        }
    }

    package init(arrayLiteral strings: String...) { self.init(strings) }

    package var startIndex: Int { 0 }
    package var endIndex: Int { codes.count }
    package subscript(i: Int) -> String { names[Int(codes[i])] }

    /// The code of `string`, adding it to the vocabulary when new.
    package mutating func code(of string: String) -> Int32 {
        if let known = lookup[string] { return known }
        let code = Int32(names.count)
        names.append(string)
        lookup[string] = code
        return code
    }

    package mutating func append(_ string: String) { codes.append(code(of: string)) }

    /// The same strings in the order `order` gives (`order[k]` is the row that becomes row `k`).
    /// The vocabulary is numbered again in order of first appearance, as if the strings had
    /// been appended in the new order.
    package func reordered(_ order: [Int]) -> InternedStrings {
        var copy = InternedStrings()
        copy.codes.reserveCapacity(order.count)
        var renumbered = [Int32](repeating: -1, count: names.count)
        for i in order {
            let old = Int(codes[i])
            if renumbered[old] < 0 { renumbered[old] = copy.code(of: names[old]) }
            copy.codes.append(renumbered[old])
        }
        return copy
    }

    /// Appends a code that ``code(of:)`` gave.
    package mutating func append(code: Int32) { codes.append(code) }

    /// Replaces the last string.
    package mutating func setLast(_ string: String) { codes[codes.count - 1] = code(of: string) }

    package mutating func reserveCapacity(_ count: Int) { codes.reserveCapacity(count) }

    package static func == (a: InternedStrings, b: InternedStrings) -> Bool { a.elementsEqual(b) }
}
