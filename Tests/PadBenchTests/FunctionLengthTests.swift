import Foundation
import Testing

/// The house rule: no function, initialiser or subscript in Sources is longer than 60 lines
/// (from its declaration to its closing brace), so each can be read on one screen.
@Suite struct FunctionLengthTests {
    static let limit = 60

    /// Each function-like declaration of `text` longer than `limit` lines: its first line and length.
    /// Braces are counted outside string literals and comments, which is enough for this code base
    /// (a brace inside a single-line string literal is skipped; multi-line literals hold none that
    /// matter, and a false count would only lengthen a function, never hide one).
    static func longFunctions(_ text: String) -> [(line: Int, length: Int, declaration: String)] {
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let declaration =
            #/^\s*(@\w+(\([^)]*\))?\s+)*((package|public|private|fileprivate|internal|static|mutating|nonisolated|override|final|consuming|borrowing|convenience|required)\s+)*(func|init|subscript)\b/#
        var found: [(Int, Int, String)] = []
        for (i, line) in lines.enumerated() where line.firstMatch(of: declaration) != nil {
            var depth = 0, started = false, end = i
            scan: for j in i..<lines.count {
                var inString = false
                var previous: Character = " "
                for ch in lines[j] {
                    if ch == "\"" && previous != "\\" { inString.toggle() }
                    if !inString && ch == "/" && previous == "/" { break }
                    if !inString && ch == "{" { depth += 1; started = true }
                    if !inString && ch == "}" { depth -= 1 }
                    previous = ch
                }
                if started && depth == 0 {
                    end = j
                    break scan
                }
                // A protocol requirement or a declaration without a body.
                if !started && j > i + 20 { break scan }
            }
            if started && end - i + 1 > limit {
                found.append((i + 1, end - i + 1, line.trimmingCharacters(in: .whitespaces)))
            }
        }
        return found
    }

    @Test func noFunctionInSourcesIsOverSixtyLines() throws {
        let root = ArchitectureTableTests.root + "/Sources"
        let files =
            FileManager.default.enumerator(atPath: root)?.compactMap { $0 as? String }
            .filter { $0.hasSuffix(".swift") } ?? []
        #expect(files.count > 100)
        for file in files {
            let text = try String(contentsOfFile: root + "/" + file, encoding: .utf8)
            for long in Self.longFunctions(text) {
                Issue.record("Sources/\(file):\(long.line): \(long.length) lines: \(long.declaration)")
            }
        }
    }

    /// The counter itself: a 61-line function is found, a 60-line one and a protocol requirement are not.
    @Test func theCounterFindsALongFunction() {
        let body = { (n: Int) in (0..<n).map { "    let x\($0) = \"{\" // }" }.joined(separator: "\n") }
        let long = "func long() {\n" + body(59) + "\n}\n"
        let short = "package func short() {\n" + body(58) + "\n}\n"
        let requirement = "protocol P {\n    func f() -> Int\n}\n"
        #expect(Self.longFunctions(long).map(\.length) == [61])
        #expect(Self.longFunctions(short).isEmpty && Self.longFunctions(requirement).isEmpty)
    }
}
