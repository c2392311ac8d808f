import Foundation
import Testing

@testable import PadVocabulary

/// Every run file's name comes from `RunFile`: no Swift source spells one as a string literal of
/// its own (alone, after a `/` or under `frames/`), so renaming a file is one edit.
@Suite struct RunFileTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test func noRunFileNameIsSpelledOutsideTheEnum() throws {
        let names = RunFile.allCases.map(\.name)
        #expect(Set(names).count == names.count)
        let literals = names.flatMap { ["\"\($0)\"", "\"/\($0)\"", "\"frames/\($0)\""] }
        let enumerator = FileManager.default.enumerator(atPath: Self.root + "/Sources")
        var scanned = 0
        while let path = enumerator?.nextObject() as? String {
            guard path.hasSuffix(".swift"), path != "PadVocabulary/RunFile.swift" else { continue }
            let text = try String(contentsOfFile: Self.root + "/Sources/" + path, encoding: .utf8)
            scanned += 1
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                guard !line.trimmingCharacters(in: .whitespaces).hasPrefix("//") else { continue }
                for literal in literals where line.contains(literal) {
                    Issue.record("Sources/\(path):\(number + 1) spells \(literal): use RunFile")
                }
            }
        }
        #expect(scanned > 100)
    }
}
