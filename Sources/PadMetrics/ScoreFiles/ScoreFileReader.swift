#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import PadText

/// Scores read from files: the score set, and per row its id, split (when the file has a split
/// column) and where it came from (file and line), so duplicates and bad values can be located.
package struct ImportedScores: Sendable {
    package var set: ScoreSet
    /// Per row: generic `id`; bob.pad `test_label` (with `#sample_n` when that column exists);
    /// bob 4/5-column `test_label`; pyeer `<file name>:<line>`. In bob formats a repeated label
    /// (one row per frame) gets `#2`, `#3`, ... on its repeats.
    package var ids: [String] = []
    /// Per row: the presentation (capture attempt) the row is a frame of: bob formats'
    /// `test_label`, a generic file's `presentation` column. Empty when every row is a
    /// presentation of its own (then its id names it).
    package var presentations: [String] = []
    /// Per row split, only for files with a split column (empty otherwise).
    package var splits: [String]
    /// Per row subject, only when the file names them (empty otherwise): a generic file's
    /// `subject` column; bob 4/5-column `real_id` of bona fide rows ("" for attacks, whose
    /// real_id is `attack`).
    package var subjects: [String] = []
    /// The `group.<name>` / `attr.<name>` columns of a generic file (lower-cased), in header order.
    package var labelNames: [String] = []
    /// `labels[k][row]`: the value of `labelNames[k]` on each row ("" = not given); empty when the
    /// file has no label column.
    package var labels: [[String]] = []
    package var format: ScoreFormat
    package var polarity: ScorePolarity
    /// Data lines read (blank and `#` lines excluded).
    package var lines: Int
    /// Per row: index into `files`, and line number.
    package var fileIndex: [UInt16] = []
    package var lineNumbers: [Int32] = []
    package var files: [String] = []

    /// FNV-1a 64 of an id (PadMetrics depends on no other module, so it keeps this one line of
    /// its own rather than importing PadDataset's `FNV1a`).
    static func hash(_ id: String) -> UInt64 {
        // The bytes in place when the string has them contiguous (every native string): the
        // generic walk over `utf8` was most of the time of hashing ten million ids.
        id.utf8.withContiguousStorageIfAvailable { bytes in
            var h: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in bytes { h = (h ^ UInt64(byte)) &* 0x0000_0100_0000_01B3 }
            return h
        } ?? id.utf8.reduce(0xcbf2_9ce4_8422_2325) { ($0 ^ UInt64($1)) &* 0x0000_0100_0000_01B3 }
    }

    /// ``hash(_:)`` of every id, the two halves on two cores, each written into its place of
    /// one array (no halves joined by copying).
    static func hashes(_ ids: [String]) -> [UInt64] {
        let middle = ids.count / 2
        return [UInt64](unsafeUninitializedCapacity: ids.count) { out, initialized in
            ids.withUnsafeBufferPointer { ids in
                // Safety: the halves write disjoint ranges of `out`; both buffers outlive the structured map.
                nonisolated(unsafe) let (ids, out) = (ids, out)
                _ = Parallel.map([0..<middle, middle..<ids.count]) { range in
                    for i in range { out[i] = Self.hash(ids[i]) }
                }
            }
            initialized = ids.count
        }
    }

    /// The values that occur more than once. One counting pass and one scatter by the top bits
    /// (about eight values a bucket: FNV-1a spreads ids evenly), then each bucket sorted on its own
    /// in cache, and neighbours compared: two passes over the values where a full radix sort of
    /// ten million takes eight (and it needs no order beyond "equal values are together").
    static func repeated(_ values: [UInt64]) -> Set<UInt64> {
        let n = values.count
        guard n > 1 else { return [] }
        // 2^bits buckets, at least n / 8 of them (at most 2^24: 128 MB of counts for 2^27 values).
        let bits = min(24, max(1, Int.bitWidth - (n / 8).leadingZeroBitCount))
        let shift = UInt64(64 - bits)
        var starts = [Int](repeating: 0, count: (1 << bits) + 1)
        var repeats = Set<UInt64>()
        values.withUnsafeBufferPointer { values in
            starts.withUnsafeMutableBufferPointer { starts in
                for value in values { starts[Int(value >> shift) + 1] += 1 }
                for b in 0..<(1 << bits) { starts[b + 1] += starts[b] }
                let grouped = UnsafeMutableBufferPointer<UInt64>.allocate(capacity: n)
                defer { grouped.deallocate() }
                var fill = Array(starts.dropLast())
                fill.withUnsafeMutableBufferPointer { fill in
                    for value in values {
                        let b = Int(value >> shift)
                        grouped[fill[b]] = value
                        fill[b] += 1
                    }
                }
                for b in 0..<(1 << bits) where starts[b + 1] - starts[b] > 1 {
                    var bucket = UnsafeMutableBufferPointer(rebasing: grouped[starts[b]..<starts[b + 1]])
                    bucket.sort()
                    for k in 1..<bucket.count where bucket[k] == bucket[k - 1] { repeats.insert(bucket[k]) }
                }
            }
        }
        return repeats
    }

    /// Appends the label columns `names` of `rows` new rows (`values[k][row]`; empty: none given)
    /// after the `before` rows already read (default: the ids appended so far, when called before
    /// the new rows' ids are). Columns are matched by name: a column only one side has is ""
    /// (not given) on the other's rows.
    package mutating func appendLabels(_ names: [String], _ values: [[String]], rows: Int, before: Int? = nil) {
        let before = before ?? ids.count
        for name in names where !labelNames.contains(name) {
            labelNames.append(name)
            labels.append([String](repeating: "", count: before))
        }
        for k in labelNames.indices {
            if let given = names.firstIndex(of: labelNames[k]), given < values.count {
                labels[k] += values[given]
            } else {
                labels[k] += repeatElement("", count: rows)
            }
        }
    }

    /// bob formats name a presentation by its `test_label` and write one row per frame scored, so
    /// a label may repeat: the label is the rows' presentation, and each frame row keeps an id of
    /// its own: the k-th repeat becomes `label#k` (k = 2, 3, ...), in file order, so two models'
    /// files with the same rows pair up frame by frame. (Generic files have an `id` column: a
    /// repeat there is an error, see ``checkUniqueIds()``.)
    mutating func numberRepeatedIds() {
        var seen: [String: Int] = [:]
        seen.reserveCapacity(ids.count)
        if presentations.isEmpty { presentations = ids }
        for k in ids.indices {
            let n = (seen[ids[k]] ?? 0) + 1
            seen[ids[k]] = n
            if n > 1 { ids[k] += "#\(n)" }
        }
        if seen.count == ids.count && presentations == ids { presentations = [] }
    }

    /// The first row whose presentation's first row has another label, species or split (the
    /// rule ``PresentationIndex`` states), as an error naming both lines. `split(row)` is the
    /// row's split as the run reads it.
    package func checkPresentations(split: (Int) -> String) throws(ScoreFileError) {
        guard !presentations.isEmpty else { return }
        // Numbered in order of first appearance, then checked as the table checks its interned ones.
        var numbers: [String: Int32] = [:]
        let codes = presentations.map { name -> Int32 in
            if let known = numbers[name] { return known }
            let code = Int32(numbers.count)
            numbers[name] = code
            return code
        }
        try checkPresentations(codes: codes, count: numbers.count, sameSplit: { split($0) == split($1) }, split: split)
    }

    /// The check with each row's presentation already numbered (`codes[row]` in 0..<`count`, as
    /// the table interned ``presentations``): each presentation's first row is kept in an array
    /// indexed by its number, so no row hashes its presentation again.
    /// `sameSplit(a, b)` compares two rows' splits; `split` names one for the message.
    package func checkPresentations(
        codes: [Int32], count: Int, sameSplit: (Int, Int) -> Bool, split: (Int) -> String
    ) throws(ScoreFileError) {
        guard !presentations.isEmpty else { return }
        precondition(codes.count == presentations.count, "one code per row")
        var firstRow = [Int](repeating: -1, count: count)
        let species = set.speciesIndex
        var conflict: PresentationIndex.Conflict?
        species.withUnsafeBufferPointer { species in
            codes.withUnsafeBufferPointer { codes in
                for row in codes.indices {
                    let code = Int(codes[row]), first = firstRow[code]
                    guard first >= 0 else {
                        firstRow[code] = row
                        continue
                    }
                    let attribute: String
                    if (species[first] < 0) != (species[row] < 0) {
                        attribute = "label"
                    } else if species[first] != species[row] {
                        attribute = "species"
                    } else if !sameSplit(first, row) {
                        attribute = "split"
                    } else {
                        continue
                    }
                    conflict = .init(first: first, row: row, attribute: attribute)
                    return
                }
            }
        }
        if let conflict { throw presentationError(conflict, split: split) }
    }

    /// The error of a presentation whose row `conflict.row` differs from its first row.
    func presentationError(_ conflict: PresentationIndex.Conflict, split: (Int) -> String) -> ScoreFileError {
        let species = set.speciesIndex
        func value(_ r: Int) -> String {
            switch conflict.attribute {
            case "label": return species[r] < 0 ? "bonafide" : "attack"
            case "species": return set.speciesNames[Int(species[r])]
            default: return split(r)
            }
        }
        let row = conflict.row
        return ScoreFileError(
            file: files[Int(fileIndex[row])], line: Int(lineNumbers[row]),
            "presentation '\(ScoreFileError.quoted(presentations[row]))' spans two \(conflict.plural): "
                + "'\(ScoreFileError.quoted(value(row)))' here, '\(ScoreFileError.quoted(value(conflict.first)))' at "
                + "\(files[Int(fileIndex[conflict.first])]):\(lineNumbers[conflict.first])"
        )
    }

    /// The first two rows with the same id, as an error naming both lines. Hashes are sorted
    /// (no dictionary of every id), so ten million ids take a fraction of a second.
    package func checkUniqueIds() throws(ScoreFileError) {
        guard ids.count > 1 else { return }
        let suspect = Self.repeated(Self.hashes(ids))
        guard !suspect.isEmpty else { return }
        var firstRow: [String: Int] = [:]
        for (row, id) in ids.enumerated() {
            guard suspect.contains(Self.hash(id)) else { continue }
            if let first = firstRow[id] {
                throw ScoreFileError(
                    file: files[Int(fileIndex[row])], line: Int(lineNumbers[row]),
                    "id '\(ScoreFileError.quoted(id))' already scored at "
                        + "\(files[Int(fileIndex[first])]):\(lineNumbers[first]); each sample is counted once"
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
package struct ScoreFileReader: Sendable {
    package var polarity: ScorePolarity
    /// CSV files of at least this many bytes are scanned in two halves at once (below it a
    /// thread costs more than it saves; tests lower it).
    var parallelScanBytes = 1 << 22

    package init(polarity: ScorePolarity = .bonafideHigh) { self.polarity = polarity }

    /// - Parameter paths: one file, or for pyeer two (genuine, impostor).
    package func read(_ paths: [String], format explicit: ScoreFormat? = nil) throws(ScoreFileError) -> ImportedScores {
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
            try readLines(first, into: &result, subjects: true) {
                (fields: [Field], line: Int, path: String) throws(ScoreFileError) -> (Double, String?, String) in
                guard fields.count == columns else {
                    throw ScoreFileError(
                        file: path, line: line,
                        "\(fields.count) columns; \(format.rawValue) has \(columns) "
                            + "(claimed_id \(columns == 5 ? "model_label " : "")real_id test_label score)"
                    )
                }
                let claimed = fields[0], real = fields[columns == 4 ? 1 : 2], testLabel = fields[columns - 2]
                let score = try Self.score(fields[columns - 1], path, line)
                let id = String(decoding: testLabel, as: UTF8.self)
                if real.elementsEqual("attack".utf8) { return (score, Self.speciesFromLabel(testLabel), id) }
                if claimed.elementsEqual(real) { return (score, nil, id) }
                throw ScoreFileError(
                    file: path, line: line,
                    "neither bona fide (claimed_id == real_id) nor attack "
                        + "(real_id 'attack'): a verification impostor is not a PAD score"
                )
            }
        }
        if format != .generic && format != .pyeer { result.numberRepeatedIds() }
        return result
    }

    /// Chooses the format from the first data line (and the header, if any).
    package func detect(_ paths: [String]) throws(ScoreFileError) -> ScoreFormat {
        if paths.count == 2 { return .pyeer }
        let path = paths[0]
        // The first data line is near the start: read a prefix, twice as long while that line
        // (past blank and `#` lines) is not complete in it, not the whole file (gigabytes).
        var prefix = 1 << 16
        var bytes = try Self.readFile(path, limit: prefix)
        var start = 0
        while start < bytes.count {
            var end = start
            while end < bytes.count && bytes[end] != 0x0A { end += 1 }
            // The prefix may have been cut (readFile drops a byte order mark, so a full prefix
            // can hold up to 3 bytes fewer): read twice as much. A shorter file is read whole,
            // so at worst one read too many.
            if end == bytes.count && bytes.count >= prefix - 3 {
                prefix *= 2
                bytes = try Self.readFile(path, limit: prefix)
                continue
            }
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
                "cannot tell the score format from its first line '\(TextBytes.quote(String(line), limit: 80))'; "
                    + "pass --format (\(ScoreFormat.allCases.map(\.rawValue).joined(separator: ", ")))"
            )
        }
        throw ScoreFileError(file: path, line: 0, "no data lines")
    }

    // MARK: parsing helpers

    typealias Field = ArraySlice<UInt8>

    /// The bytes of a file (its first `limit` bytes when given), with a trailing 0 when
    /// `keepTerminator`. Read into uninitialised capacity: zero-filling the buffer first would
    /// touch every page of a file of gigabytes once more.
    static func readFile(_ path: String, keepTerminator: Bool = false, limit: Int = .max) throws(ScoreFileError)
        -> [UInt8]
    {
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
        let fileSize = ftell(file)
        fseek(file, 0, SEEK_SET)
        guard fileSize >= 0 else { throw ScoreFileError(file: path, line: 0, "cannot read size") }
        let size = min(fileSize, limit)
        var read = 0
        var bytes = [UInt8](unsafeUninitializedCapacity: size + 1) { buffer, initialized in
            read =
                size >= Self.parallelReadBytes
                ? Self.readHalves(fileno(file), into: buffer, size) : fread(buffer.baseAddress, 1, size, file)
            buffer[read] = 0 // the trailing 0 keeps strtod in bounds
            initialized = read + 1
        }
        guard read == size else { throw ScoreFileError(file: path, line: 0, "short read") }
        if !keepTerminator { bytes.removeLast() }
        // A UTF-8 byte order mark (spreadsheet exports) is not part of the header.
        if bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF { bytes.removeFirst(3) }
        return bytes
    }

    /// `moreIds` appended to `ids` and `morePresentations` to `presentations`, the two on two
    /// cores when they are long (a scanned part of five million rows each: five million string
    /// copies per column).
    static func appendStrings(
        _ ids: inout [String], _ moreIds: [String], _ presentations: inout [String], _ morePresentations: [String]
    ) {
        guard moreIds.count >= 1 << 16 && !morePresentations.isEmpty else {
            ids.append(contentsOf: moreIds)
            presentations.append(contentsOf: morePresentations)
            return
        }
        // Each array is held by one closure alone while it grows (no copy on write).
        // Safety: each array is touched by one step only, and read back after `both` has returned.
        nonisolated(unsafe) var (left, right) = (ids, presentations)
        (ids, presentations) = ([], [])
        _ = try? Parallel.both(
            { left.append(contentsOf: moreIds) },
            { right.append(contentsOf: morePresentations) })
        (ids, presentations) = (left, right)
    }

    /// Files from this size on are read in two halves at once (``readHalves(_:into:_:)``).
    static let parallelReadBytes = 1 << 23

    /// The first `size` bytes of `descriptor` into `buffer`, its two halves read by `pread(2)` on
    /// two cores: the copies out of the page cache and the fresh pages they land in (a 400 MB
    /// score file: a quarter of a second on one core) are shared. The bytes read (short on error).
    static func readHalves(_ descriptor: Int32, into buffer: UnsafeMutableBufferPointer<UInt8>, _ size: Int) -> Int {
        // Safety: the halves fill disjoint ranges of `buffer`, which outlives the structured map.
        nonisolated(unsafe) let base = buffer.baseAddress!
        let half = size / 2
        let counts = Parallel.map([0..<half, half..<size]) { range -> Int in
            var done = range.lowerBound
            while done < range.upperBound {
                let n = pread(descriptor, base + done, range.upperBound - done, off_t(done))
                if n < 0 && errno == EINTR { continue }
                if n <= 0 { break }
                done += n
            }
            return done - range.lowerBound
        }
        return counts[0] == half ? half + counts[1] : counts[0]
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
        if parsed.isInfinite && !TextBytes.isInfinityLiteral(field) {
            throw ScoreFileError(
                file: path, line: line,
                "score '\(ScoreFileError.quoted(String(decoding: field, as: UTF8.self)))' overflows a double "
                    + "(write inf for an infinite score)"
            )
        }
        return parsed
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
    /// With `subjects`, a bona fide row's second field after the claimed id (bob's `real_id`) is
    /// its subject.
    func readLines(
        _ path: String, into result: inout ImportedScores, subjects: Bool = false,
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
            if subjects {
                // bob 4: claimed real label score; bob 5: claimed model real label score.
                let real = fields[fields.count == 5 ? 2 : 1]
                result.subjects.append(species == nil ? String(decoding: real, as: UTF8.self) : "")
            }
            result.ids.append(id)
            result.fileIndex.append(file)
            result.lineNumbers.append(Int32(clamping: line))
            result.lines += 1
        }
    }

    /// Comma-separated files with a header: generic and bob.pad. Quoted fields are accepted.
    /// The file is scanned by ``CSVScoreScanner`` on byte offsets (no slices, no String but the
    /// id per row), in two halves on two cores when it is large (``scanParts(_:path:format:)``);
    /// then its rows join `result` (which may already hold another file).
    func readCSV(_ path: String, format: ScoreFormat, into result: inout ImportedScores) throws(ScoreFileError) {
        let bytes = try Self.readFile(path, keepTerminator: true)
        var parts = try scanParts(bytes, path: path, format: format)
        // Rows read before this file's: the first part's ids may be handed over below, before its
        // labels are appended, so the labels count rows themselves.
        var rowsBefore = result.set.count
        // The first file's first part hands over its per-row strings and line numbers (the
        // scanner reserved room for the whole file): no copy of five million of each.
        if result.ids.isEmpty && result.presentations.isEmpty && !parts.isEmpty {
            swap(&result.ids, &parts[0].ids)
            swap(&result.presentations, &parts[0].presentations)
            swap(&result.lineNumbers, &parts[0].lineNumbers)
            result.fileIndex = [UInt16](repeating: UInt16(result.files.count), count: result.ids.count)
        }
        // Every per-row array sized for all parts at once: the second part's rows would otherwise
        // regrow (copy) the first's (ten million ids and line numbers).
        let rowCount = parts.reduce(0) { $0 + $1.scores.count }, idCount = parts.reduce(0) { $0 + $1.ids.count }
        result.set.reserveCapacity(result.set.count + rowCount)
        result.ids.reserveCapacity(result.ids.count + idCount)
        result.lineNumbers.reserveCapacity(result.lineNumbers.count + idCount)
        result.fileIndex.reserveCapacity(result.fileIndex.count + idCount)
        if parts.contains(where: { !$0.presentations.isEmpty }) {
            result.presentations.reserveCapacity(result.ids.count + idCount)
        }
        if parts.contains(where: { !$0.splits.isEmpty }) {
            result.splits.reserveCapacity(result.splits.count + rowCount)
        }
        let fileIndex = UInt16(result.files.count)
        for rows in parts {
            // Map part-local species indices onto the set's (first appearance in file order).
            let mapping = rows.speciesNames.map { result.set.index(ofSpecies: $0) }
            result.set.append(scores: rows.scores, speciesIndex: rows.species.map { $0 < 0 ? -1 : mapping[Int($0)] })
            result.splits.append(contentsOf: rows.splits)
            if !rows.presentations.isEmpty && result.presentations.count < result.ids.count {
                result.presentations += result.ids[result.presentations.count...]
            }
            result.subjects.append(contentsOf: rows.subjects)
            result.appendLabels(rows.labelNames, rows.labels, rows: rows.scores.count, before: rowsBefore)
            rowsBefore += rows.scores.count
            Self.appendStrings(&result.ids, rows.ids, &result.presentations, rows.presentations)
            result.lineNumbers.append(contentsOf: rows.lineNumbers)
            result.fileIndex.append(contentsOf: repeatElement(fileIndex, count: rows.ids.count))
            result.lines += rows.scores.count
        }
        result.files.append(path)
    }

    /// The rows of a CSV score file (`bytes` ends with the 0 that stops strtod), in file order:
    /// one part, or two scanned concurrently when the file is large. The header is read first;
    /// the second half starts at a line boundary with the header's columns and the count of the
    /// lines before it, so ids, line numbers and errors are those of one scan, and the error
    /// reported is the first in the file.
    func scanParts(_ bytes: [UInt8], path: String, format: ScoreFormat) throws(ScoreFileError)
        -> [CSVScoreScanner.Rows]
    {
        let negate = polarity == .attackHigh
        let outcome: Result<[CSVScoreScanner.Rows], ScoreFileError> = bytes.withUnsafeBufferPointer { buffer in
            // Safety: the scans only read `bytes`, which outlives them (the map returns after both).
            nonisolated(unsafe) let base = buffer.baseAddress!
            let count = buffer.count - 1
            @Sendable func scan(_ from: Int, _ to: Int, _ columns: CSVScoreScanner.Columns?, _ linesBefore: Int)
                -> Result<CSVScoreScanner.Rows, ScoreFileError>
            {
                var scanner = CSVScoreScanner(
                    base: base + from, count: to - from, path: path, format: format, negate: negate,
                    columns: columns, linesBefore: linesBefore)
                do throws(ScoreFileError) {
                    try scanner.scan()
                    return .success(scanner.rows)
                } catch {
                    return .failure(error)
                }
            }
            guard count >= parallelScanBytes else { return scan(0, count, nil, 0).map { [$0] } }
            var headerScanner = CSVScoreScanner(base: base, count: count, path: path, format: format, negate: negate)
            let header: (columns: CSVScoreScanner.Columns, end: Int)?
            do throws(ScoreFileError) { header = try headerScanner.header() } catch { return .failure(error) }
            guard let header, let middle = Self.lineStart(base, from: header.end + (count - header.end) / 2, count)
            else { return scan(0, count, nil, 0).map { [$0] } }
            let linesBefore = Self.newlines(base, middle)
            let parts = Parallel.map([0, 1]) { part in
                part == 0 ? scan(0, middle, nil, 0) : scan(middle, count, header.columns, linesBefore)
            }
            return Result { () throws(ScoreFileError) in [try parts[0].get(), try parts[1].get()] }
        }
        return try outcome.get()
    }

    /// The offset just past the first newline at or after `offset` (nil when there is none
    /// before `count`).
    static func lineStart(_ base: UnsafePointer<UInt8>, from offset: Int, _ count: Int) -> Int? {
        guard offset < count, let found = memchr(base + offset, 0x0A, count - offset) else { return nil }
        let next = UnsafeRawPointer(found) - UnsafeRawPointer(base) + 1
        return next < count ? next : nil
    }

    /// Newlines in the first `count` bytes.
    static func newlines(_ base: UnsafePointer<UInt8>, _ count: Int) -> Int {
        var lines = 0, offset = 0
        while offset < count, let found = memchr(base + offset, 0x0A, count - offset) {
            lines += 1
            offset = UnsafeRawPointer(found) - UnsafeRawPointer(base) + 1
        }
        return lines
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
