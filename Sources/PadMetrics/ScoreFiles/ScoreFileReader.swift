#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Scores read from files: the score set, and per row its id, split (when the file has a split
/// column) and where it came from (file and line), so duplicates and bad values can be located.
public struct ImportedScores: Sendable {
    public var set: ScoreSet
    /// Per row: generic `id`; bob.pad `test_label` (with `#sample_n` when that column exists);
    /// bob 4/5-column `test_label`; pyeer `<file name>:<line>`. In bob formats a repeated label
    /// (one row per frame) gets `#2`, `#3`, ... on its repeats.
    public var ids: [String] = []
    /// Per row split, only for files with a split column (empty otherwise).
    public var splits: [String]
    public var format: ScoreFormat
    public var polarity: ScorePolarity
    /// Data lines read (blank and `#` lines excluded).
    public var lines: Int
    /// Per row: index into `files`, and line number.
    public var fileIndex: [UInt16] = []
    public var lineNumbers: [Int32] = []
    public var files: [String] = []

    /// FNV-1a 64 of an id (PadMetrics depends on no other module, so it keeps this one line of
    /// its own rather than importing PadDataset's `FNV1a`).
    static func hash(_ id: String) -> UInt64 {
        id.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }

    /// bob formats name a presentation by its `test_label` and write one row per frame scored, so
    /// a label may repeat: the k-th repeat becomes `label#k` (k = 2, 3, ...), in file order, so
    /// two models' files with the same rows pair up. (Generic files have an `id` column: a repeat
    /// there is an error, see ``checkUniqueIds()``.)
    mutating func numberRepeatedIds() {
        var seen: [String: Int] = [:]
        seen.reserveCapacity(ids.count)
        for k in ids.indices {
            let n = (seen[ids[k]] ?? 0) + 1
            seen[ids[k]] = n
            if n > 1 { ids[k] += "#\(n)" }
        }
    }

    /// The first two rows with the same id, as an error naming both lines. Hashes are sorted
    /// (no dictionary of every id), so ten million ids take a fraction of a second.
    public func checkUniqueIds() throws(ScoreFileError) {
        guard ids.count > 1 else { return }
        var hashes = ids.map(Self.hash)
        hashes.sort()
        var suspect = Set<UInt64>()
        for k in 1..<hashes.count where hashes[k] == hashes[k - 1] { suspect.insert(hashes[k]) }
        guard !suspect.isEmpty else { return }
        var firstRow: [String: Int] = [:]
        for (row, id) in ids.enumerated() {
            guard suspect.contains(Self.hash(id)) else { continue }
            if let first = firstRow[id] {
                throw ScoreFileError(
                    file: files[Int(fileIndex[row])], line: Int(lineNumbers[row]),
                    "id '\(ScoreFileError.quoted(id))' already scored at \(files[Int(fileIndex[first])]):\(lineNumbers[first]); each sample is counted once"
                )
            }
            firstRow[id] = row
        }
    }
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
                throw ScoreFileError(
                    file: first, line: 0,
                    "pyeer format needs two files: genuine (bona fide) then impostor (attack) scores")
            }
            try readLines(paths[0], into: &result) {
                (fields: [Field], line: Int, path: String) throws(ScoreFileError) -> (Double, String?, String) in
                guard let last = fields.last else { throw ScoreFileError(file: path, line: line, "empty line") }
                return (try Self.score(last, path, line), nil, "\(Self.baseName(path)):\(line)")
            }
            try readLines(paths[1], into: &result) {
                (fields: [Field], line: Int, path: String) throws(ScoreFileError) -> (Double, String?, String) in
                guard let last = fields.last else { throw ScoreFileError(file: path, line: line, "empty line") }
                return (try Self.score(last, path, line), "attack", "\(Self.baseName(path)):\(line)")
            }
        case .generic, .bobpad:
            guard paths.count == 1 else {
                throw ScoreFileError(file: first, line: 0, "\(format.rawValue) takes one file")
            }
            try readCSV(first, format: format, into: &result)
        case .bob4, .bob5:
            guard paths.count == 1 else {
                throw ScoreFileError(file: first, line: 0, "\(format.rawValue) takes one file")
            }
            let columns = format == .bob4 ? 4 : 5
            try readLines(first, into: &result) {
                (fields: [Field], line: Int, path: String) throws(ScoreFileError) -> (Double, String?, String) in
                guard fields.count == columns else {
                    throw ScoreFileError(
                        file: path, line: line,
                        "\(fields.count) columns; \(format.rawValue) has \(columns) (claimed_id \(columns == 5 ? "model_label " : "")real_id test_label score)"
                    )
                }
                let claimed = fields[0], real = fields[columns == 4 ? 1 : 2], testLabel = fields[columns - 2]
                let score = try Self.score(fields[columns - 1], path, line)
                let id = String(decoding: testLabel, as: UTF8.self)
                if real.elementsEqual("attack".utf8) { return (score, Self.speciesFromLabel(testLabel), id) }
                if claimed.elementsEqual(real) { return (score, nil, id) }
                throw ScoreFileError(
                    file: path, line: line,
                    "neither bona fide (claimed_id == real_id) nor attack (real_id 'attack'): a verification impostor is not a PAD score"
                )
            }
        }
        if format != .generic && format != .pyeer { result.numberRepeatedIds() }
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
            throw ScoreFileError(
                file: path, line: 0,
                "cannot tell the score format from its first line '\(line.prefix(80))'; pass --format (\(ScoreFormat.allCases.map(\.rawValue).joined(separator: ", ")))"
            )
        }
        throw ScoreFileError(file: path, line: 0, "no data lines")
    }

    // MARK: parsing helpers

    typealias Field = ArraySlice<UInt8>

    static func readFile(_ path: String, keepTerminator: Bool = false) throws(ScoreFileError) -> [UInt8] {
        // Directories, FIFOs and devices are refused before opening (a FIFO would block, a
        // directory reports a bogus size).
        var info = stat()
        guard stat(path, &info) == 0 else {
            throw ScoreFileError(file: path, line: 0, "cannot open: \(String(cString: strerror(errno)))")
        }
        guard (info.st_mode & S_IFMT) == S_IFREG else {
            throw ScoreFileError(file: path, line: 0, "not a regular file")
        }
        guard let file = fopen(path, "rb") else {
            throw ScoreFileError(file: path, line: 0, "cannot open: \(String(cString: strerror(errno)))")
        }
        defer { fclose(file) }
        fseek(file, 0, SEEK_END)
        let size = ftell(file)
        fseek(file, 0, SEEK_SET)
        guard size >= 0 else { throw ScoreFileError(file: path, line: 0, "cannot read size") }
        var bytes = [UInt8](repeating: 0, count: size + 1) // trailing 0 keeps strtod in bounds
        let read = bytes.withUnsafeMutableBytes { fread($0.baseAddress, 1, size, file) }
        guard read == size else { throw ScoreFileError(file: path, line: 0, "short read") }
        if !keepTerminator { bytes.removeLast() }
        // A UTF-8 byte order mark (spreadsheet exports) is not part of the header.
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { bytes.removeFirst(3) }
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
            throw ScoreFileError(
                file: path, line: line,
                "score '\(ScoreFileError.quoted(String(decoding: field, as: UTF8.self)))' is not a number")
        }
        if parsed.isInfinite && !Self.isInfinityLiteral(field) {
            throw ScoreFileError(
                file: path, line: line,
                "score '\(ScoreFileError.quoted(String(decoding: field, as: UTF8.self)))' overflows a double (write inf for an infinite score)"
            )
        }
        return parsed
    }

    /// `inf`, `+inf`, `-inf`, `infinity` in any case: the only texts that may parse as infinite.
    static func isInfinityLiteral<C: Collection>(_ field: C) -> Bool where C.Element == UInt8 {
        var bytes = Array(field)
        if let first = bytes.first, first == UInt8(ascii: "+") || first == UInt8(ascii: "-") { bytes.removeFirst() }
        let lower = String(decoding: bytes.map { $0 | 0x20 }, as: UTF8.self)
        return lower == "inf" || lower == "infinity"
    }

    static func baseName(_ path: String) -> String { path.split(separator: "/").last.map(String.init) ?? path }

    static func speciesFromLabel(_ label: Field) -> String {
        let parts = String(decoding: label, as: UTF8.self).split(separator: "/")
        if let i = parts.firstIndex(of: "attack"), i + 1 < parts.count, i + 2 < parts.count || parts.count == i + 2 {
            return String(parts[i + 1])
        }
        return "attack"
    }

    /// Whitespace-separated lines (bob, pyeer). The closure returns (score, species or nil for
    /// bona fide, id).
    func readLines(
        _ path: String, into result: inout ImportedScores,
        _ parse: ([Field], Int, String) throws(ScoreFileError) -> (Double, String?, String)
    ) throws(ScoreFileError) {
        let bytes = try Self.readFile(path)
        let file = UInt16(result.files.count)
        result.files.append(path)
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
            let (score, species, id) = try parse(fields, line, path)
            result.set.append(score: polarity == .attackHigh ? -score : score, species: species)
            result.ids.append(id)
            result.fileIndex.append(file)
            result.lineNumbers.append(Int32(clamping: line))
            result.lines += 1
        }
    }

    /// Comma-separated files with a header: generic and bob.pad. Quoted fields are accepted.
    /// The hot loop works on byte offsets (no slices, no Strings); scores are parsed by `strtod`
    /// in place, which the field's delimiter stops.
    func readCSV(_ path: String, format: ScoreFormat, into result: inout ImportedScores) throws(ScoreFileError) {
        let bytes = try Self.readFile(path, keepTerminator: true)
        let count = bytes.count - 1 // the trailing 0 stops strtod at the end of the file
        let negate = polarity == .attackHigh
        typealias Parsed = (
            failure: ScoreFileError?, header: [String]?, scores: [Double], species: [Int32], speciesNames: [String],
            splits: [String], lines: Int, ids: [String], lineNumbers: [Int32]
        )
        let parsed: Parsed = bytes.withUnsafeBufferPointer { buffer -> Parsed in
            // Everything the loop touches is local to this closure: no captured boxes, no
            // exclusivity checks on the hot path.
            let base = buffer.baseAddress!
            var headerNames: [String]?
            var labelColumn = 0, speciesColumn = 0, scoreColumn = 0, splitColumn = -1, idColumn = -1, sampleColumn = -1
            var ids: [String] = [], lineNumbers: [Int32] = []
            var starts = [Int](repeating: 0, count: 64), ends = [Int](repeating: 0, count: 64)
            var lastSpecies: [UInt8] = [], lastSpeciesIndex: Int32 = -2
            var splitCache: [[UInt8]: String] = [:]
            var failure: ScoreFileError?
            var scores: [Double] = [], species: [Int32] = [], speciesNames: [String] = [], splits: [String] = []
            var lines = 0
            scores.reserveCapacity(count / 16)
            species.reserveCapacity(count / 16)
            var line = 0
            var start = 0
            while start < count {
                line += 1
                var end = start
                while end < count && base[end] != 0x0A { end += 1 }
                var lineEnd = end
                if lineEnd > start && base[lineEnd - 1] == 0x0D { lineEnd -= 1 }
                let lineStart = start
                start = end + 1
                if lineEnd == lineStart || base[lineStart] == UInt8(ascii: "#") { continue }
                // Split into fields (quotes protect commas).
                var fieldCount = 0
                var i = lineStart, fieldStart = lineStart
                var quoted = false
                while i <= lineEnd {
                    if i == lineEnd || (base[i] == UInt8(ascii: ",") && !quoted) {
                        if fieldCount < 64 {
                            var s = fieldStart, e = i
                            if e - s >= 2 && base[s] == UInt8(ascii: "\"") && base[e - 1] == UInt8(ascii: "\"") {
                                s += 1; e -= 1
                            }
                            starts[fieldCount] = s
                            ends[fieldCount] = e
                        }
                        fieldCount += 1
                        fieldStart = i + 1
                    } else if base[i] == UInt8(ascii: "\"") {
                        quoted.toggle()
                    }
                    i += 1
                }
                guard let names = headerNames else {
                    let names = (0..<min(fieldCount, 64)).map { k in
                        Self.text(base, starts[k], ends[k]).trimmingWhitespace().lowercased()
                    }
                    func column(_ name: String) -> Int? { names.firstIndex(of: name) }
                    let wanted =
                        format == .generic ? ["label", "species", "score"] : ["is_bonafide", "attack_type", "score"]
                    for name in wanted where column(name) == nil {
                        failure = ScoreFileError(
                            file: path, line: line, "missing column '\(name)' in header \(names.joined(separator: ","))"
                        )
                        return (failure, headerNames, scores, species, speciesNames, splits, lines, ids, lineNumbers)
                    }
                    labelColumn = column(wanted[0])!; speciesColumn = column(wanted[1])!;
                    scoreColumn = column(wanted[2])!
                    splitColumn = format == .generic ? (column("split") ?? -1) : -1
                    idColumn = (format == .generic ? column("id") : column("test_label")) ?? -1
                    sampleColumn = format == .bobpad ? (column("sample_n") ?? -1) : -1
                    headerNames = names
                    continue
                }
                guard fieldCount == names.count else {
                    failure = ScoreFileError(
                        file: path, line: line, "\(fieldCount) fields, the header has \(names.count)")
                    return (failure, headerNames, scores, species, speciesNames, splits, lines, ids, lineNumbers)
                }
                // Label.
                let ls = starts[labelColumn], ll = ends[labelColumn] - ls
                let isBonaFide: Bool
                func matches(_ word: StaticString) -> Bool {
                    guard ll == word.utf8CodeUnitCount else { return false }
                    let w = word.utf8Start
                    for k in 0..<ll where (base[ls + k] | 0x20) != w[k] { return false }
                    return true
                }
                if format == .generic {
                    if matches("bonafide") {
                        isBonaFide = true
                    } else if matches("attack") {
                        isBonaFide = false
                    } else {
                        failure = ScoreFileError(
                            file: path, line: line,
                            "label '\(Self.text(base, starts[labelColumn], ends[labelColumn]))' must be bonafide or attack"
                        )
                        return (failure, headerNames, scores, species, speciesNames, splits, lines, ids, lineNumbers)
                    }
                } else {
                    if matches("true") {
                        isBonaFide = true
                    } else if matches("false") {
                        isBonaFide = false
                    } else {
                        failure = ScoreFileError(
                            file: path, line: line,
                            "is_bonafide '\(Self.text(base, starts[labelColumn], ends[labelColumn]))' must be True or False"
                        )
                        return (failure, headerNames, scores, species, speciesNames, splits, lines, ids, lineNumbers)
                    }
                }
                // Species index, cached for runs of the same species.
                var speciesIndex: Int32 = -1
                if !isBonaFide {
                    let ss = starts[speciesColumn], sl = ends[speciesColumn] - ss
                    var same = lastSpeciesIndex >= 0 && sl == lastSpecies.count
                    if same { for k in 0..<sl where base[ss + k] != lastSpecies[k] { same = false; break } }
                    if same {
                        speciesIndex = lastSpeciesIndex
                    } else {
                        var name = Self.text(base, starts[speciesColumn], ends[speciesColumn]).trimmingWhitespace()
                        if name.isEmpty { name = "attack" }
                        if let known = speciesNames.firstIndex(of: name) {
                            speciesIndex = Int32(known)
                        } else {
                            speciesIndex = Int32(speciesNames.count)
                            speciesNames.append(name)
                        }
                        lastSpecies = Array(UnsafeBufferPointer(start: base + ss, count: sl))
                        lastSpeciesIndex = speciesIndex
                    }
                }
                // Score: empty or nan is a failure to process.
                let cs = starts[scoreColumn], ce = ends[scoreColumn]
                var score = Double.nan
                if ce > cs {
                    var endPointer: UnsafeMutablePointer<CChar>?
                    let startPointer = UnsafeMutableRawPointer(mutating: base + cs).assumingMemoryBound(to: CChar.self)
                    score = strtod(startPointer, &endPointer)
                    if endPointer.map({ UnsafeRawPointer($0) }) != UnsafeRawPointer(base + ce) {
                        failure = ScoreFileError(
                            file: path, line: line,
                            "score '\(ScoreFileError.quoted(Self.text(base, starts[scoreColumn], ends[scoreColumn])))' is not a number"
                        )
                        return (failure, headerNames, scores, species, speciesNames, splits, lines, ids, lineNumbers)
                    }
                    if score.isInfinite
                        && !Self.isInfinityLiteral(UnsafeBufferPointer(start: base + cs, count: ce - cs))
                    {
                        failure = ScoreFileError(
                            file: path, line: line,
                            "score '\(ScoreFileError.quoted(Self.text(base, cs, ce)))' overflows a double (write inf for an infinite score)"
                        )
                        return (failure, headerNames, scores, species, speciesNames, splits, lines, ids, lineNumbers)
                    }
                    if negate { score = -score }
                }
                scores.append(score)
                species.append(speciesIndex)
                if splitColumn >= 0 {
                    let key = Array(
                        UnsafeBufferPointer(
                            start: base + starts[splitColumn], count: ends[splitColumn] - starts[splitColumn]))
                    if let cached = splitCache[key] {
                        splits.append(cached)
                    } else {
                        let value = Self.text(base, starts[splitColumn], ends[splitColumn])
                        splitCache[key] = value
                        splits.append(value)
                    }
                }
                if idColumn >= 0 {
                    var id = Self.text(base, starts[idColumn], ends[idColumn])
                    if sampleColumn >= 0 { id += "#" + Self.text(base, starts[sampleColumn], ends[sampleColumn]) }
                    ids.append(id)
                } else {
                    ids.append("\(Self.baseName(path)):\(line)")
                }
                lineNumbers.append(Int32(clamping: line))
                lines += 1
            }
            return (failure, headerNames, scores, species, speciesNames, splits, lines, ids, lineNumbers)
        }
        if let failure = parsed.failure { throw failure }
        if parsed.header == nil { throw ScoreFileError(file: path, line: 0, "empty file, expected a header") }
        // Map file-local species indices onto the set's (a set may already hold another file).
        let mapping = parsed.speciesNames.map { result.set.index(ofSpecies: $0) }
        result.set.reserveCapacity(result.set.count + parsed.scores.count)
        for i in parsed.scores.indices {
            let local = parsed.species[i]
            result.set.append(score: parsed.scores[i], speciesIndex: local < 0 ? -1 : mapping[Int(local)])
        }
        result.splits.append(contentsOf: parsed.splits)
        result.ids.append(contentsOf: parsed.ids)
        result.lineNumbers.append(contentsOf: parsed.lineNumbers)
        result.fileIndex.append(contentsOf: repeatElement(UInt16(result.files.count), count: parsed.ids.count))
        result.files.append(path)
        result.lines += parsed.lines
    }

    /// The bytes [start, end) as a String (off the hot path: headers, errors, new species).
    static func text(_ base: UnsafePointer<UInt8>, _ start: Int, _ end: Int) -> String {
        String(decoding: UnsafeBufferPointer(start: base + start, count: end - start), as: UTF8.self)
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
