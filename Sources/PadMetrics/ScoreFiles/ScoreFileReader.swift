#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Scores read from files, with the split of each when the file gives one.
public struct ImportedScores: Sendable {
    public var set: ScoreSet
    /// Per sample: "" when the file has no split column.
    public var splits: [String]
    public var format: ScoreFormat
    public var polarity: ScorePolarity
    /// Data lines read (blank and `#` lines excluded).
    public var lines: Int
}

/// Reads score files byte by byte (no String per field on the hot path; numbers parsed with
/// `strtod` in place), so ten million lines take seconds.
///
/// ```swift
/// let scores = try ScoreFileReader().read(["scores.csv"])              // format auto-detected
/// let nist = try ScoreFileReader(polarity: .attackHigh).read(["nist.csv"], format: .generic)
/// ```
/// Blank lines and lines starting with `#` are skipped; a malformed line is an error naming file
/// and line; an empty or `nan` score is a failure to process (kept, counted as failed).
public struct ScoreFileReader: Sendable {
    public var polarity: ScorePolarity

    public init(polarity: ScorePolarity = .bonafideHigh) { self.polarity = polarity }

    /// - Parameter paths: one file, or for pyeer two (genuine, impostor).
    public func read(_ paths: [String], format explicit: ScoreFormat? = nil) throws(ScoreFileError) -> ImportedScores {
        guard let first = paths.first else { throw ScoreFileError(file: "", line: 0, "no score file given") }
        let format: ScoreFormat
        if let explicit { format = explicit } else { format = try detect(paths) }
        var result = ImportedScores(set: ScoreSet(), splits: [], format: format, polarity: polarity, lines: 0)
        switch format {
        case .pyeer:
            guard paths.count == 2 else {
                throw ScoreFileError(file: first, line: 0, "pyeer format needs two files: genuine (bona fide) then impostor (attack) scores")
            }
            try readLines(paths[0], into: &result) { (fields: [Field], line: Int, path: String) throws(ScoreFileError) -> (Double, String?, String) in
                guard let last = fields.last else { throw ScoreFileError(file: path, line: line, "empty line") }
                return (try Self.score(last, path, line), nil, "")
            }
            try readLines(paths[1], into: &result) { (fields: [Field], line: Int, path: String) throws(ScoreFileError) -> (Double, String?, String) in
                guard let last = fields.last else { throw ScoreFileError(file: path, line: line, "empty line") }
                return (try Self.score(last, path, line), "attack", "")
            }
        case .generic, .bobpad:
            guard paths.count == 1 else { throw ScoreFileError(file: first, line: 0, "\(format.rawValue) takes one file") }
            try readCSV(first, format: format, into: &result)
        case .bob4, .bob5:
            guard paths.count == 1 else { throw ScoreFileError(file: first, line: 0, "\(format.rawValue) takes one file") }
            let columns = format == .bob4 ? 4 : 5
            try readLines(first, into: &result) { (fields: [Field], line: Int, path: String) throws(ScoreFileError) -> (Double, String?, String) in
                guard fields.count == columns else {
                    throw ScoreFileError(file: path, line: line, "\(fields.count) columns; \(format.rawValue) has \(columns) (claimed_id \(columns == 5 ? "model_label " : "")real_id test_label score)")
                }
                let claimed = fields[0], real = fields[columns == 4 ? 1 : 2], testLabel = fields[columns - 2]
                let score = try Self.score(fields[columns - 1], path, line)
                if real.elementsEqual("attack".utf8) { return (score, Self.speciesFromLabel(testLabel), "") }
                if claimed.elementsEqual(real) { return (score, nil, "") }
                throw ScoreFileError(file: path, line: line,
                                     "neither bona fide (claimed_id == real_id) nor attack (real_id 'attack'): a verification impostor is not a PAD score")
            }
        }
        return result
    }

    /// Chooses the format from the first data line (and the header, if any).
    public func detect(_ paths: [String]) throws(ScoreFileError) -> ScoreFormat {
        if paths.count == 2 { return .pyeer }
        let path = paths[0]
        let bytes = try Self.readFile(path)
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            let line = String(decoding: bytes[start..<end], as: UTF8.self).trimmingWhitespace()
            start = end + 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            let lower = line.lowercased()
            if lower.hasPrefix("claimed_id,") && lower.contains("is_bonafide") { return .bobpad }
            if lower.hasPrefix("id,label,species,score") { return .generic }
            let fields = line.split(whereSeparator: { $0 == " " || $0 == "\t" })
            if fields.count == 4 { return .bob4 }
            if fields.count == 5 { return .bob5 }
            throw ScoreFileError(file: path, line: 0,
                                 "cannot tell the score format from its first line '\(line.prefix(80))'; pass --format (\(ScoreFormat.allCases.map(\.rawValue).joined(separator: ", ")))")
        }
        throw ScoreFileError(file: path, line: 0, "no data lines")
    }

    // MARK: parsing helpers

    typealias Field = ArraySlice<UInt8>

    static func readFile(_ path: String) throws(ScoreFileError) -> [UInt8] {
        guard let file = fopen(path, "rb") else { throw ScoreFileError(file: path, line: 0, "cannot open: \(String(cString: strerror(errno)))") }
        defer { fclose(file) }
        fseek(file, 0, SEEK_END)
        let size = ftell(file)
        fseek(file, 0, SEEK_SET)
        guard size >= 0 else { throw ScoreFileError(file: path, line: 0, "cannot read size") }
        var bytes = [UInt8](repeating: 0, count: size + 1)  // trailing 0 keeps strtod in bounds
        let read = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, size, file) }
        guard read == size else { throw ScoreFileError(file: path, line: 0, "short read") }
        bytes.removeLast()
        return bytes
    }

    /// NaN for an empty field or `nan` (failure to process); otherwise a finite or infinite number.
    static func score(_ field: Field, _ path: String, _ line: Int) throws(ScoreFileError) -> Double {
        if field.isEmpty { return .nan }
        var buffer = (UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0), UInt64(0))
        let parsed: Double? = withUnsafeMutableBytes(of: &buffer) { raw -> Double? in
            guard field.count < raw.count else { return nil }
            for (i, b) in field.enumerated() { raw[i] = b }
            raw[field.count] = 0
            let start = raw.baseAddress!.assumingMemoryBound(to: CChar.self)
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(start, &end)
            return end == start + field.count ? value : nil
        }
        guard let parsed else {
            throw ScoreFileError(file: path, line: line, "score '\(String(decoding: field, as: UTF8.self))' is not a number")
        }
        return parsed
    }

    static func speciesFromLabel(_ label: Field) -> String {
        let parts = String(decoding: label, as: UTF8.self).split(separator: "/")
        if let i = parts.firstIndex(of: "attack"), i + 1 < parts.count, i + 2 < parts.count || parts.count == i + 2 {
            return String(parts[i + 1])
        }
        return "attack"
    }

    /// Whitespace-separated lines (bob, pyeer). The closure returns (score, species or nil for
    /// bona fide, split).
    func readLines(_ path: String, into result: inout ImportedScores,
                   _ parse: ([Field], Int, String) throws(ScoreFileError) -> (Double, String?, String)) throws(ScoreFileError) {
        let bytes = try Self.readFile(path)
        var line = 0
        var start = 0
        var fields: [Field] = []
        while start < bytes.count {
            line += 1
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            var lineEnd = end
            if lineEnd > start && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            fields.removeAll(keepingCapacity: true)
            var i = start
            while i < lineEnd {
                while i < lineEnd && (bytes[i] == 0x20 || bytes[i] == 0x09) { i += 1 }
                let fieldStart = i
                while i < lineEnd && bytes[i] != 0x20 && bytes[i] != 0x09 { i += 1 }
                if i > fieldStart { fields.append(bytes[fieldStart..<i]) }
            }
            start = end + 1
            if fields.isEmpty || fields[0].first == UInt8(ascii: "#") { continue }
            let (score, species, split) = try parse(fields, line, path)
            append(score, species, split, into: &result)
        }
    }

    @inline(__always)
    func append(_ score: Double, _ species: String?, _ split: String, into result: inout ImportedScores) {
        let value = polarity == .attackHigh ? -score : score
        result.set.append(score: value, species: species)
        result.splits.append(split)
        result.lines += 1
    }

    /// Comma-separated files with a header: generic and bob.pad. Quoted fields are accepted.
    func readCSV(_ path: String, format: ScoreFormat, into result: inout ImportedScores) throws(ScoreFileError) {
        let bytes = try Self.readFile(path)
        var line = 0
        var start = 0
        var header: [String]?
        var labelColumn = 0, speciesColumn = 0, scoreColumn = 0, splitColumn: Int?
        var fields: [Field] = []
        var speciesCache: [Field: String] = [:]
        while start < bytes.count {
            line += 1
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            var lineEnd = end
            if lineEnd > start && bytes[lineEnd - 1] == 0x0D { lineEnd -= 1 }
            let lineStart = start
            start = end + 1
            if lineEnd == lineStart || bytes[lineStart] == UInt8(ascii: "#") { continue }
            fields.removeAll(keepingCapacity: true)
            var i = lineStart
            var fieldStart = i
            var quoted = false
            while i <= lineEnd {
                if i == lineEnd || (bytes[i] == UInt8(ascii: ",") && !quoted) {
                    var field = bytes[fieldStart..<i]
                    if field.count >= 2 && field.first == UInt8(ascii: "\"") && field.last == UInt8(ascii: "\"") {
                        field = field.dropFirst().dropLast()
                    }
                    fields.append(field)
                    fieldStart = i + 1
                } else if bytes[i] == UInt8(ascii: "\"") {
                    quoted.toggle()
                }
                i += 1
            }
            guard let columns = header else {
                let names = fields.map { String(decoding: $0, as: UTF8.self).trimmingWhitespace().lowercased() }
                func column(_ name: String) throws(ScoreFileError) -> Int {
                    guard let index = names.firstIndex(of: name) else {
                        throw ScoreFileError(file: path, line: line, "missing column '\(name)' in header \(names.joined(separator: ","))")
                    }
                    return index
                }
                if format == .generic {
                    labelColumn = try column("label"); speciesColumn = try column("species"); scoreColumn = try column("score")
                    splitColumn = names.firstIndex(of: "split")
                } else {
                    labelColumn = try column("is_bonafide"); speciesColumn = try column("attack_type"); scoreColumn = try column("score")
                    splitColumn = nil
                }
                header = names
                continue
            }
            guard fields.count == columns.count else {
                throw ScoreFileError(file: path, line: line, "\(fields.count) fields, the header has \(columns.count)")
            }
            let labelField = fields[labelColumn]
            let isBonaFide: Bool
            if format == .generic {
                if Self.equalsIgnoringCase(labelField, "bonafide") { isBonaFide = true }
                else if Self.equalsIgnoringCase(labelField, "attack") { isBonaFide = false }
                else {
                    throw ScoreFileError(file: path, line: line, "label '\(String(decoding: labelField, as: UTF8.self))' must be bonafide or attack")
                }
            } else {
                if Self.equalsIgnoringCase(labelField, "true") { isBonaFide = true }
                else if Self.equalsIgnoringCase(labelField, "false") { isBonaFide = false }
                else {
                    throw ScoreFileError(file: path, line: line, "is_bonafide '\(String(decoding: labelField, as: UTF8.self))' must be True or False")
                }
            }
            var species: String?
            if !isBonaFide {
                let field = fields[speciesColumn]
                if let cached = speciesCache[field] { species = cached } else {
                    let name = String(decoding: field, as: UTF8.self).trimmingWhitespace()
                    let value = name.isEmpty ? "attack" : name
                    speciesCache[field] = value
                    species = value
                }
            }
            let score = try Self.score(fields[scoreColumn], path, line)
            let split = splitColumn.map { String(decoding: fields[$0], as: UTF8.self) } ?? ""
            append(score, species, split, into: &result)
        }
        if header == nil { throw ScoreFileError(file: path, line: 0, "empty file, expected a header") }
    }

    static func equalsIgnoringCase(_ field: Field, _ word: String) -> Bool {
        let w = Array(word.utf8)
        guard field.count == w.count else { return false }
        for (a, b) in zip(field, w) where (a | 0x20) != b { return false }
        return true
    }
}

extension String {
    func trimmingWhitespace() -> String {
        var s = Substring(self)
        while let f = s.first, f == " " || f == "\t" || f == "\r" { s = s.dropFirst() }
        while let l = s.last, l == " " || l == "\t" || l == "\r" { s = s.dropLast() }
        return String(s)
    }
}
