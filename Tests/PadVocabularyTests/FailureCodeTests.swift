import Foundation
import PadVocabulary
import Testing

/// `FailureCode` is the set of status codes padbench writes: every case renders and parses back,
/// and the manual's table (docs/run-files.md) lists exactly its cases.
@Suite struct FailureCodeTests {
    static let readme = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("docs").appendingPathComponent("run-files.md").path

    @Test func everyCodeRendersAndParsesBack() throws {
        for code in FailureCode.allCases {
            #expect(FailureCode(rawValue: code.rawValue) == code)
            let status = SampleStatus.failed(code: code, message: "m")
            #expect(SampleStatus(field: status.field, message: "m") == status)
            #expect(status.field == code.rawValue && !status.isOK)
        }
        #expect(Set(FailureCode.allCases.map(\.rawValue)).count == FailureCode.allCases.count)
    }

    /// `ok` is the status column's word for a sample that did not fail, never a failure code;
    /// other text is no status at all.
    @Test func okIsNotAFailureCode() {
        #expect(FailureCode(rawValue: "ok") == nil)
        #expect(SampleStatus(field: "ok", message: "") == .ok)
        #expect(SampleStatus.ok.field == "ok" && SampleStatus.ok.code == nil)
        #expect(SampleStatus(field: "Decode_Error", message: "") == nil)
        #expect(SampleStatus(field: "", message: "") == nil)
    }

    /// The codes of the files written since the first archive format, spelled as they are.
    @Test func rawValuesAreTheWrittenCodes() {
        #expect(
            FailureCode.allCases.map(\.rawValue) == [
                "missing_file", "unsupported_format", "decode_error", "too_large", "encode_error",
                "estimator_error", "timeout", "no_score", "missing_vendor_result", "no_decision",
                "no_liveness_run", "no_assessable_frame",
            ])
    }

    /// docs/run-files.md's "Failure codes" table: its first column, in order, is `FailureCode.allCases`.
    @Test func readmeTableListsExactlyTheCases() throws {
        let text = try String(contentsOfFile: Self.readme, encoding: .utf8)
        let start = try #require(text.range(of: "| failure code | meaning |"))
        var listed: [String] = []
        for line in text[start.upperBound...].split(separator: "\n").dropFirst() {
            guard line.hasPrefix("|") else { break }
            let cell = line.split(separator: "|", omittingEmptySubsequences: false)[1]
            listed.append(cell.trimmingCharacters(in: CharacterSet(charactersIn: " `")))
        }
        #expect(listed == FailureCode.allCases.map(\.rawValue))
    }
}
