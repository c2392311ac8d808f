import Foundation
import Testing

/// Issue 28 as a user meets it: `profiles show` names every skipped gate with its reason and the
/// decided face-analysis gates with their kind; `import misnap-mibi` takes MiSnap's documented
/// time-only events and refuses one written with a value, naming the file and event.
@Suite struct SeedProfilesCLITests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path

    @Test func profilesShowListsSkippedGatesWithReasonsAndDecidesFaceAnalysis() throws {
        let dot = try CommandLineTests.run(["profiles", "show", "dot-default"])
        #expect(dot.status == 0)
        #expect(
            dot.out.contains("face.confidence >= 0.06  [NO_FACE] Face detection confidence below 0.06  (approximation)")
        )
        #expect(dot.out.contains("head.yaw_deg in [-20, 20]  [YAW]"))
        #expect(
            dot.out.contains(
                "SKIPPED [GLASSES] Remove glasses: DOT's glass status (\"Remove glasses\"): no installable model detects glasses"
            ))
        #expect(dot.out.contains("SKIPPED [SHARPNESS] Image not sharp: DOT's sharpness attribute: range not stated"))
        let luna = try CommandLineTests.run(["profiles", "show", "luna-id-default"])
        #expect(
            luna.out.contains(
                "head.pitch_deg in [-25, 25]  [1002] Head turned too much (pitch beyond 25 degrees)  (approximation)"))
        #expect(luna.out.contains("SKIPPED [1001] Bad quality (AGS below 0.5): AGS (garbage score"))
        #expect(!luna.out.contains("[1006]"))
        let risky = try CommandLineTests.run(["profiles", "show", "misnap-high-risk"])
        #expect(risky.out.contains("SKIPPED [BLINK]") && !risky.out.contains(">= 700") && !risky.out.contains(">= 0.7"))
    }

    /// `profiles show` prints how a presentation of several frames is decided; `profiles export`
    /// writes a preset's YAML to edit, byte for byte the built-in file, and never over a file
    /// without --force; the exported file loads as a profile.
    @Test func profilesShowPrintsTheFrameRuleAndExportWritesThePreset() throws {
        let luna = try CommandLineTests.run(["profiles", "show", "luna-id-default"])
        #expect(luna.out.contains("frames (a presentation of several frames): best_shot"), "\(luna.out)")
        let dot = try CommandLineTests.run(["profiles", "show", "dot-default"])
        #expect(
            dot.out.contains(
                "frames (a presentation of several frames): aggregate (face.count: max; others: the run's --aggregate"))
        let basic = try CommandLineTests.run(["profiles", "show", "basic"])
        #expect(basic.out.contains("frames (a presentation of several frames): aggregate (others: the run's"))
        let dir = CommandLineTests.folder()
        let file = dir + "/mine.yaml"
        let export = try CommandLineTests.run(["profiles", "export", "luna-id-default", "--out", file])
        #expect(export.status == 0 && export.out.contains("wrote \(file)"), "\(export.err)")
        let preset = Self.root + "/Sources/PadProfiles/Presets/luna-id-default.yaml"
        #expect(try Data(contentsOf: URL(fileURLWithPath: file)) == Data(contentsOf: URL(fileURLWithPath: preset)))
        // An existing file is kept unless --force.
        try "my edits\n".write(toFile: file, atomically: true, encoding: .utf8)
        let again = try CommandLineTests.run(["profiles", "export", "dot-default", "--out", file])
        #expect(again.status == 1 && again.err.contains("\(file) exists; give --force"), "\(again.err)")
        #expect(try String(contentsOfFile: file, encoding: .utf8) == "my edits\n")
        let forced = try CommandLineTests.run(["profiles", "export", "dot-default", "--out", file, "--force"])
        #expect(forced.status == 0)
        let valid = try CommandLineTests.run(["profiles", "validate", file])
        #expect(valid.status == 0 && valid.out.contains("ok (dot-default"), "\(valid.out)")
        let unknown = try CommandLineTests.run(["profiles", "export", "dot-defualt"])
        #expect(unknown.status == 1 && unknown.err.contains("did you mean 'dot-default'"), "\(unknown.err)")
        let stdout = try CommandLineTests.run(["profiles", "export", "basic", "--out", "-"])
        #expect(stdout.status == 0 && stdout.out.contains("name: basic"))
        try? FileManager.default.removeItem(atPath: dir)
    }

    @Test func misnapTimeOnlyEventsImportAndAValueIsRefused() throws {
        let folder = CommandLineTests.folder()
        let good = try CommandLineTests.run([
            "import", "misnap-mibi", "--dataset", Self.root + "/datasets/sample", "--input",
            Self.root + "/examples/imports/misnap/000000.json", "--profiles", "misnap-mibi", "--out", folder + "/run",
        ])
        #expect(good.status == 0, "\(good.err)")
        let samples = try String(contentsOfFile: folder + "/run/samples.csv", encoding: .utf8)
        #expect(samples.split(separator: "\n").first?.contains("misnap.live") == true)
        try #"{"UXP": [{"FFD": [1201, 118]}, {"FSD": [1500, "0"]}]}"#.write(
            toFile: folder + "/000000.json", atomically: true, encoding: .utf8)
        let bad = try CommandLineTests.run([
            "import", "misnap-mibi", "--dataset", Self.root + "/datasets/sample", "--input", folder + "/000000.json",
            "--out", folder + "/bad",
        ])
        #expect(bad.status == 1)
        #expect(bad.err.contains(folder + "/000000.json: UXP[1] FSD is a time-only event"))
        #expect(!FileManager.default.fileExists(atPath: folder + "/bad"))
    }
}
