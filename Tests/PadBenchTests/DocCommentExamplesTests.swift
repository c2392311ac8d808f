import Foundation
import Testing

/// Every example in a doc comment is code that compiles. A fenced block in a `///` comment of
/// Sources (` ```swift ` or ` ```yaml `) must appear, line for line (spacing aside), in one of
/// the `Tests/*/DocExamplesTests.swift` files, where the Swift is compiled and run (or only
/// compiled, where it names files relative to a working directory) and the YAML is parsed by the
/// profile loader. An example that drifts from the API then fails here, not in a reader's editor.
@Suite struct DocCommentExamplesTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    struct Block: CustomStringConvertible {
        var file: String
        var line: Int
        var language: String
        var lines: [String]
        var description: String { "\(file):\(line) (\(language))" }
    }

    static func swiftFiles(under folder: String) -> [String] {
        let enumerator = FileManager.default.enumerator(atPath: root + "/" + folder)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".swift") { files.append(folder + "/" + path) }
        }
        return files.sorted()
    }

    /// The fenced blocks of `///` comments, their lines trimmed of the comment marker and spaces.
    static func blocks(in file: String) throws -> [Block] {
        let lines = try String(contentsOfFile: root + "/" + file, encoding: .utf8).split(
            separator: "\n", omittingEmptySubsequences: false)
        var found: [Block] = []
        var open: Block?
        for (index, raw) in lines.enumerated() {
            let text = raw.trimmingCharacters(in: .whitespaces)
            guard text.hasPrefix("///") else {
                if let block = open { Issue.record("\(block): the comment ends inside the block") }
                open = nil
                continue
            }
            let content = text.dropFirst(3).trimmingCharacters(in: .whitespaces)
            if content.hasPrefix("```") {
                if let block = open {
                    found.append(block)
                    open = nil
                } else {
                    open = Block(file: file, line: index + 1, language: String(content.dropFirst(3)), lines: [])
                }
            } else {
                open?.lines.append(Self.normalized(content))
            }
        }
        return found
    }

    /// A line without its indentation and with each run of spaces as one space: swift-format
    /// aligns trailing comments differently in a test than a doc comment does.
    static func normalized(_ line: String) -> String {
        line.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ")
    }

    static func exampleLines() throws -> [String] {
        var lines: [String] = []
        for file in swiftFiles(under: "Tests") where file.hasSuffix("/DocExamplesTests.swift") {
            lines += try String(contentsOfFile: root + "/" + file, encoding: .utf8).split(
                separator: "\n", omittingEmptySubsequences: false
            ).map { Self.normalized(String($0)) }
        }
        return lines
    }

    /// Whether `block` occurs as consecutive lines of `lines`.
    static func contains(_ lines: [String], _ block: [String]) -> Bool {
        guard let first = block.first, block.count <= lines.count else { return block.isEmpty }
        for start in lines.indices where lines[start] == first && start + block.count <= lines.count {
            if Array(lines[start..<start + block.count]) == block { return true }
        }
        return false
    }

    @Test func everyFencedExampleIsCompiledByADocExamplesTest() throws {
        let examples = try Self.exampleLines()
        var checked = 0
        for file in Self.swiftFiles(under: "Sources") {
            for block in try Self.blocks(in: file) {
                #expect(["swift", "yaml"].contains(block.language), "\(block): tag the block swift or yaml")
                let compiled = Self.contains(examples, block.lines)
                #expect(compiled, "\(block) is in no DocExamplesTests.swift")
                checked += 1
            }
        }
        #expect(checked >= 40, "only \(checked) examples found: is the Sources walk broken?")
    }

    /// The matcher itself: a block is found only whole and in order.
    @Test func matcherFindsOnlyWholeBlocksInOrder() {
        let lines = ["a", "b", "c", "d"]
        #expect(Self.contains(lines, ["b", "c"]))
        #expect(!Self.contains(lines, ["c", "b"]))
        #expect(!Self.contains(lines, ["c", "d", "e"]))
    }

    /// Every `Example: Suite.test` a doc comment names is a test that exists: a suite of that name
    /// in Tests/ with a function of that name in the same file.
    @Test func everyNamedExampleIsATest() throws {
        let tests = try Self.swiftFiles(under: "Tests").map {
            try String(contentsOfFile: Self.root + "/" + $0, encoding: .utf8)
        }
        let reference = try Regex(#"Example: `([A-Za-z0-9_]+)\.([A-Za-z0-9_]+)`"#)
        var checked = 0
        for file in Self.swiftFiles(under: "Sources") {
            let text = try String(contentsOfFile: Self.root + "/" + file, encoding: .utf8)
            for match in text.matches(of: reference) {
                let suite = String(match.output[1].substring ?? ""), test = String(match.output[2].substring ?? "")
                let found = tests.contains {
                    $0.contains("struct \(suite) ") && $0.contains("func \(test)(")
                }
                #expect(found, "\(file): Example: `\(suite).\(test)` names no test")
                checked += 1
            }
        }
        #expect(checked > 50)
    }
}
