import Foundation
import Testing
@testable import PadMetrics
import PadVocabulary
import TestSupport

/// The fast paths of `eval --scores` give exactly what the general ones give.
@Suite struct FastScorePathTests {
    static func strtodValue(_ text: String) -> (value: Double, consumedAll: Bool) {
        text.withCString { start in
            var end: UnsafeMutablePointer<CChar>?
            let value = strtod(start, &end)
            return (value, end == UnsafeMutablePointer(mutating: start) + text.utf8.count)
        }
    }

    static func exact(_ text: String) -> Double? {
        Array(text.utf8).withUnsafeBufferPointer { ExactDecimal.parse($0.baseAddress!, count: $0.count) }
    }

    /// Hand-picked texts: signs, zeros, exponents, bounds of the fast path (2^53, 19 digits,
    /// 10^22), and texts it must leave to strtod.
    @Test func exactDecimalOnHandPickedTexts() {
        let accepted: [(String, Double)] = [
            ("0", 0), ("-0", -0.0), ("+1.5", 1.5), ("1.", 1), (".5", 0.5), ("-.25e1", -2.5), ("1E5", 1e5),
            ("1e+22", 1e22), ("9007199254740992", 9_007_199_254_740_992), ("0.1", 0.1), ("1.845584192", 1.845584192),
            ("123456789e-22", 123456789e-22), ("0000000000000000001", 1),
        ]
        for (text, value) in accepted {
            #expect(Self.exact(text)?.bitPattern == value.bitPattern, "\(text)")
        }
        // Not for the fast path (left to strtod, which decides whether it is a number at all).
        for text in [
            "", "-", ".", "e5", "1e", "1e+", "1.5.2", " 1", "1 ", "inf", "nan", "0x1p3", "1,5", "1e23", "1e-23",
            "9007199254740993", "12345678901234567890", "1e00001", "--1", "1..",
        ] {
            #expect(Self.exact(text) == nil, "\(text)")
        }
        // -0 keeps its sign, as strtod's.
        #expect(Self.exact("-0.000")!.sign == .minus)
    }

    /// Random decimals in every spelling the fast path takes: it agrees with strtod bit for bit
    /// wherever it answers, and answers for the usual score spellings.
    @Test func exactDecimalAgreesWithStrtodOnRandomTexts() {
        var generator = SplitMix64(seed: 30108)
        var answered = 0
        for k in 0..<50_000 {
            let value = Double.random(in: -1e6...1e6, using: &generator) / pow(10, Double(k % 9))
            let digits = Int.random(in: 0...17, using: &generator)
            let texts = [
                String(format: "%.\(digits)f", value), String(format: "%.\(digits)e", value),
                String(format: "%.\(digits)E", value), "\(value)", String(format: "%+.9f", value),
            ]
            for text in texts {
                let reference = Self.strtodValue(text)
                guard let fast = Self.exact(text) else { continue }
                answered += 1
                #expect(reference.consumedAll && fast.bitPattern == reference.value.bitPattern, "\(text)")
                if fast.bitPattern != reference.value.bitPattern { return }
            }
        }
        #expect(answered > 100_000)
    }

    /// Id hashes over the bytes in place equal FNV-1a 64 (published test vectors: "" is the
    /// offset basis, "a" 0xaf63dc4c8601ec8c, "foobar" 0x85944171f73967e8) and the generic walk
    /// over `utf8` on short, long (heap), non-ASCII and sliced ids; the two-core array keeps order.
    @Test func idHashesInPlaceEqualThePlainWalk() {
        #expect(ImportedScores.hash("") == 0xcbf2_9ce4_8422_2325)
        #expect(ImportedScores.hash("a") == 0xaf63_dc4c_8601_ec8c)
        #expect(ImportedScores.hash("foobar") == 0x8594_4171_f739_67e8)
        let long = String(repeating: "ïd/数据,\"x\"", count: 50)
        var ids = ["", "a", "b0", "Zoë", long, String(long.dropFirst(3)), "a\nb", "x"]
        ids += (0..<5000).map { "s\($0)" }
        let plain = ids.map { $0.utf8.reduce(UInt64(0xcbf2_9ce4_8422_2325)) { ($0 ^ UInt64($1)) &* 0x100_0000_01B3 } }
        #expect(ids.map(ImportedScores.hash) == plain)
        #expect(ImportedScores.hashes(ids) == plain)
        #expect(ImportedScores.hashes([]) == [] && ImportedScores.hashes(["a"]) == [0xaf63_dc4c_8601_ec8c])
    }

    static func write(_ bytes: [UInt8]) -> String {
        let path = TestFolder.root + "/padbench-fast-\(UUID().uuidString).csv"
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        return path
    }

    /// A hostile generic file (BOM, CRLF, quoted fields with commas, comments, blank lines, an
    /// 8 kB id, exponents, signs, hex, inf, nan, empty) reads to the values Swift's
    /// `Double(String)` gives each score text, ids and species as written.
    @Test func readerMatchesSwiftDoubleParsingOnHostileFile() throws {
        let scores = [
            "0.5", "-1.25e-3", "+7", "1e22", "1e23", "0x1.8p1", "inf", "-INF", "nan", "", ".5", "1.", "-0",
            "123456789012345678901234", "4.9406564584124654e-324", "2.2250738585072014e-308", "0.30000000000000004",
        ]
        var text = "\u{FEFF}id,label,species,score\r\n# a comment\r\n\r\n"
        var expectedIds: [String] = [], expectedScores: [Double] = []
        for (k, score) in scores.enumerated() {
            let id = k == 3 ? String(repeating: "x", count: 8000) : "s\(k)"
            let row = k % 2 == 0 ? "\(id),bonafide,,\(score)" : "\"\(id)\",ATTACK,\"print, glossy\",\(score)"
            text += row + (k % 3 == 0 ? "\r\n" : "\n")
            expectedIds.append(id)
            expectedScores.append(score.isEmpty ? .nan : Double(score)!)
        }
        let read = try ScoreFileReader().read([Self.write(Array(text.utf8))], format: .generic)
        #expect(read.ids == expectedIds)
        #expect(read.set.speciesNames == ["print, glossy"])
        #expect(
            read.set.scores.map(\.bitPattern) == expectedScores.map { $0.isNaN ? Double.nan.bitPattern : $0.bitPattern }
        )
        #expect(read.lineNumbers.first == 4 && read.lines == scores.count)
    }

    /// Errors of the scan still name file and line.
    @Test func scanErrorsNameFileAndLine() {
        for (body, line, message) in [
            ("a,bonafide,,1.5 \n", 2, "score '1.5 ' is not a number"),
            ("a,bonafide,,1e\n", 2, "score '1e' is not a number"),
            ("a,bonafide,,0.5\nb,maybe,,0.5\n", 3, "label 'maybe' must be bonafide (live, real) or attack (spoof)"),
            ("a,bonafide,0.5\n", 2, "3 fields, the header has 4"),
        ] {
            let path = Self.write(Array(("id,label,species,score\n" + body).utf8))
            #expect(throws: ScoreFileError(file: path, line: line, message)) {
                try ScoreFileReader().read([path], format: .generic)
            }
        }
    }

    /// Curves from one sort, restricted to a species or negated, equal the curves of sets that
    /// hold only those samples (what `outputs.csv` built before, sorting each time).
    @Test func restrictedAndNegatedSortedScoresGiveTheSameCurves() throws {
        var generator = SplitMix64(seed: 30109)
        var all = ScoreSet(), printOnly = ScoreSet(), negatedAll = ScoreSet()
        for k in 0..<30_000 {
            // Rounded to 0.001 so that ties across classes are common.
            let score = (Double.random(in: -3...3, using: &generator) * 1000).rounded() / 1000
            let species: String? = k % 3 == 0 ? nil : (k % 3 == 1 ? "print" : "replay")
            all.append(score: score, species: species)
            negatedAll.append(score: -score, species: species)
            if species != "replay" { printOnly.append(score: score, species: species) }
        }
        let sorted = SortedScores(all)
        Self.expectEqual(try ErrorCurve(sorted: sorted.restricted(toSpecies: [0])), try ErrorCurve(printOnly))
        Self.expectEqual(try ErrorCurve(sorted: sorted), try ErrorCurve(all))
        Self.expectEqual(try ErrorCurve(sorted: sorted.negated()), try ErrorCurve(negatedAll))
        #expect(throws: MetricsError.noScores) { try ErrorCurve(sorted: SortedScores(ScoreSet())) }
    }

    static func expectEqual(_ a: ErrorCurve, _ b: ErrorCurve) {
        #expect(a.thresholds == b.thresholds && a.speciesNames == b.speciesNames)
        #expect(a.bonaFideRejected == b.bonaFideRejected && a.attackAccepted == b.attackAccepted)
        #expect(a.pooledAccepted == b.pooledAccepted && a.attackCounts == b.attackCounts)
        #expect(a.bonaFideCount == b.bonaFideCount && a.hasTerminalPoint == b.hasTerminalPoint)
    }

    /// Reads `text` as a CSV score file, in one scan or split in two halves read on two cores.
    static func read(_ text: String, split: Bool, name: String = "parts.csv") throws -> ImportedScores {
        let path = FileManager.default.temporaryDirectory.path + "/padbench-\(UUID().uuidString)-\(name)"
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        defer { try? FileManager.default.removeItem(atPath: path) }
        var reader = ScoreFileReader()
        reader.parallelScanBytes = split ? 1 : Int.max
        do { return try reader.read([path], format: .generic) } catch {
            // Paths differ per call: compare errors by line and message.
            throw ScoreFileError(file: "", line: error.line, error.message)
        }
    }

    /// Two halves give exactly one scan's rows: ids, line numbers (blank and comment lines
    /// counted), species in order of first appearance (a species first seen in the second half
    /// comes after the first half's), splits and scores; with no id column the ids name the line.
    @Test func fileScannedInTwoHalvesEqualsOneScan() throws {
        var lines = ["# scores", "id,label,species,score,split", ""]
        for k in 0..<40 {
            let species = k < 20 ? "print" : (k % 3 == 0 ? "mask" : "replay")
            lines.append(k % 4 == 0 ? "b\(k),bonafide,,0.\(k),dev" : "a\(k),attack,\(species),-\(k).5e-1,eval")
            if k % 7 == 0 { lines.append("# comment \(k)") }
        }
        let text = lines.joined(separator: "\r\n") + "\r\n"
        let one = try Self.read(text, split: false), two = try Self.read(text, split: true)
        #expect(two.ids == one.ids && two.lineNumbers == one.lineNumbers && two.splits == one.splits)
        #expect(two.set.speciesNames == ["print", "mask", "replay"] && two.set.speciesNames == one.set.speciesNames)
        #expect(two.set.speciesIndex == one.set.speciesIndex && two.lines == one.lines && two.lines == 40)
        #expect(two.set.scores.map(\.bitPattern) == one.set.scores.map(\.bitPattern))
        #expect(two.lineNumbers.last == 49 && two.set.scores.last == -3.95)
        // The second half's species index is remapped: "mask" rows are index 1 in both.
        #expect(two.set.speciesIndex[two.ids.firstIndex(of: "a21")!] == 1)

        let noIds = "label,species,score\n" + (0..<30).map { "attack,print,\($0)" }.joined(separator: "\n")
        let named = try Self.read(noIds, split: true, name: "n.csv").ids
        #expect(named.first!.hasSuffix("n.csv:2") && named.last!.hasSuffix("n.csv:31"))
        #expect(
            try Self.read(noIds, split: false, name: "n.csv").ids.map { $0.split(separator: ":").last! }
                == named.map { $0.split(separator: ":").last! })
    }

    /// Frames of presentations, read in two halves (the first half's arrays handed over, the
    /// second's appended) or in one scan: the same ids, presentations (quoted ones with commas
    /// and doubled quotes, empty ones named by their id), line numbers, file indices and line
    /// count, whatever line the halves meet at; with a byte order mark, CRLF and no final newline.
    @Test func framesScannedInTwoHalvesEqualOneScan() throws {
        var lines = ["id,label,species,score,presentation"]
        for k in 0..<120 {
            let video = k / 4
            let presentation =
                video % 5 == 0 ? "\"v\(video), take \"\"\(video)\"\"\"" : (video % 7 == 3 ? "" : "v\(video)")
            let label = video % 3 == 0 ? "bonafide,," : "attack,\(video % 2 == 0 ? "print" : "replay"),"
            lines.append("\"f\(k)\",\(label)0.\(k % 10),\(presentation)")
            if k % 11 == 0 { lines.append("") }
        }
        let text = "\u{FEFF}" + lines.joined(separator: "\r\n")
        let one = try Self.read(text, split: false), two = try Self.read(text, split: true)
        #expect(one.ids.count == 120 && one.presentations.count == 120 && one.lines == 120)
        #expect(two.ids == one.ids && two.presentations == one.presentations && two.lines == one.lines)
        #expect(two.lineNumbers == one.lineNumbers && two.fileIndex == one.fileIndex && two.fileIndex.count == 120)
        #expect(two.set.speciesIndex == one.set.speciesIndex && two.set.scores == one.set.scores)
        #expect(one.presentations[0] == "v0, take \"0\"" && one.presentations[12] == "f12")
        #expect(one.lineNumbers.last == 132 && one.ids.last == "f119")
    }

    /// An error in either half names the line a single scan names; with errors in both halves
    /// the first in the file is reported.
    @Test func errorsOfASplitScanNameTheLineOfTheFile() {
        var lines = ["id,label,species,score"] + (0..<30).map { "s\($0),bonafide,,0.\($0)" }
        lines[25] = "s24,bonafide,,oops"
        let late = lines.joined(separator: "\n")
        #expect(throws: ScoreFileError(file: "", line: 26, "score 'oops' is not a number")) {
            try Self.read(late, split: true)
        }
        lines[3] = "s2,robot,,0.2"
        let both = lines.joined(separator: "\n")
        #expect(
            throws: ScoreFileError(file: "", line: 4, "label 'robot' must be bonafide (live, real) or attack (spoof)")
        ) {
            try Self.read(both, split: true)
        }
        #expect(throws: ScoreFileError(file: "", line: 0, "empty file, expected a header")) {
            try Self.read("# only a comment\n\n", split: true)
        }
    }
}
