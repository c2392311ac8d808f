import Foundation
import Testing

/// `--aggregate`, `--attack-potential` and presentation errors through the built `padbench`.
@Suite struct PresentationCLITests {
    typealias CLI = CommandLineTests

    static func write(_ text: String, _ path: String) {
        try! text.write(toFile: path, atomically: true, encoding: .utf8)
    }

    @Test func aggregateAndAttackPotentialOptions() throws {
        let folder = CLI.folder()
        Self.write(
            "a a v1 0.9\na a v1 0.1\nb attack attack/print/v2 0.2\nb attack attack/print/v2 0.6\n", folder + "/s.txt")
        Self.write("species,attack_potential\nprint,1\n", folder + "/ap.csv")
        let ok = try CLI.run([
            "eval", "--scores", folder + "/s.txt", "--threshold", "0.45", "--aggregate", "max",
            "--attack-potential", folder + "/ap.csv", "--out", folder + "/run",
        ])
        #expect(ok.status == 0, "\(ok.err)")
        // max: v1 0.9 accepted, v2 0.6 accepted: APCER_AP[1] = 1 (print 1/1).
        let summary = try String(contentsOfFile: folder + "/run/summary.csv", encoding: .utf8)
        #expect(summary.split(separator: "\n")[0].hasSuffix(",apcer_ap[1],apcer_ap[1]_species"))
        #expect(summary.split(separator: "\n")[1].hasSuffix(",1,print"))
        #expect(FileManager.default.fileExists(atPath: folder + "/run/frames/summary.csv"))

        let usage = try CLI.run(["eval", "--scores", folder + "/s.txt", "--aggregate", "mode", "--out", folder + "/x"])
        #expect(usage.status == 64)
        let missing = try CLI.run([
            "eval", "--scores", folder + "/s.txt", "--attack-potential", folder + "/none.csv", "--out", folder + "/y",
        ])
        #expect(missing.status == 1 && missing.err.contains(folder + "/none.csv"))
    }

    @Test func presentationSpanningTwoLabelsIsOneErrorLine() throws {
        let folder = CLI.folder()
        Self.write("a a v1 0.9\nb attack v1 0.2\n", folder + "/s.txt")
        let result = try CLI.run(["eval", "--scores", folder + "/s.txt", "--out", folder + "/run"])
        #expect(result.status == 1)
        #expect(
            result.err.contains(
                "\(folder)/s.txt:2: presentation 'v1' spans two labels: 'attack' here, 'bonafide' at \(folder)/s.txt:1")
        )
        #expect(!FileManager.default.fileExists(atPath: folder + "/run"))
    }
}
