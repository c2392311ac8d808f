import Foundation
import Testing

/// The last line of a resumed bench says what this session did (issue 29): a resume whose journal
/// already held every sample printed "0.0 images/s measured in this session", and one that measured
/// a few divided them by the wall time of deciding the whole run. Both failed on 15b46ab.
@Suite struct ResumeSummaryCLITests {
    typealias CLI = ProfileOutputsCLITests

    /// Resumes a six-sample bench whose journal holds `rows` rows; its standard output and summary line.
    static func resumed(journalRows rows: Int) throws -> (stdout: String, line: String) {
        let dir = CommandLineTests.folder()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let (_, out) = try DataSafetyCLITests.interruptedBench(dir, rows: rows)
        let resumed = try CLI.padbench(["bench", "--resume", out])
        #expect(resumed.status == 0, "\(resumed.stderr)")
        let line = resumed.stdout.split(separator: "\n").first { $0.hasPrefix("samples ") }.map(String.init) ?? ""
        return (resumed.stdout, line)
    }

    @Test func aResumeWithNothingLeftSaysSoInsteadOfARate() throws {
        let (stdout, line) = try Self.resumed(journalRows: 6)
        #expect(line.hasPrefix("samples 6 = ok 6 + failed 0; wall "), "\(stdout)")
        #expect(line.hasSuffix(" s, no samples measured in this session; 6 taken over from the journal"), "\(line)")
        #expect(!stdout.contains("images/s"))
    }

    @Test func aResumeThatMeasuredSomeGivesTheirRateAndTheTakenOverCount() throws {
        let (_, line) = try Self.resumed(journalRows: 4)
        // "2 samples measured in this session (R images/s over S s of measuring), 4 taken over ..."
        let pattern =
            #/ s, 2 samples measured in this session \(([0-9.]+) images/s over ([0-9.]+) s of measuring\), 4 taken over from the journal$/#
        let match = try #require(line.firstMatch(of: pattern), "\(line)")
        let rate = try #require(Double(match.1)), seconds = try #require(Double(match.2))
        #expect(seconds > 0 && rate > 0)
        // The rate is the 2 measured samples over the measuring seconds (printed to 0.1, or 0.001
        // below 1 image/s, and to 0.001 s).
        #expect(abs(rate - 2 / seconds) <= 0.05 + 2 / seconds * 0.001 / seconds + 1e-9, "\(line)")
    }
}
