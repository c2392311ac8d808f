import Foundation
import Testing

/// `scripts/regress.sh` (what `make regress` runs) exits as `compare` does: 0 no regression,
/// 1 a regression, 2 runs that cannot be compared; `MODEL` and `EXTERNAL` reach the bench.
@Suite struct RegressCLITests {
    static let root = NetworksCLITests.root

    /// The sample's 80 stills, a program scoring each by its label (`SCORE_ATTACK` for attacks),
    /// and a profile on that score.
    static func setUp() throws -> (dir: String, data: String, profile: String) {
        let dir = CommandLineTests.folder()
        let data = dir + "/stills"
        try FileManager.default.createDirectory(atPath: data, withIntermediateDirectories: true)
        let rows = try String(contentsOfFile: root + "/datasets/sample/manifest.csv", encoding: .utf8)
            .split(separator: "\n").filter { !$0.hasPrefix("video/") }
        for row in rows.dropFirst() {
            let path = String(row.split(separator: ",")[0])
            try FileManager.default.createDirectory(
                atPath: data + "/" + (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
            try FileManager.default.linkItem(atPath: root + "/datasets/sample/" + path, toPath: data + "/" + path)
        }
        try (rows.joined(separator: "\n") + "\n").write(
            toFile: data + "/manifest.csv", atomically: true, encoding: .utf8)
        try """
        import json, sys
        attack = float(sys.argv[1])
        for line in sys.stdin:
            r = json.loads(line)
            if r.get("describe"):
                print(json.dumps({"outputs": ["score"]}), flush=True); continue
            score = attack if "/attack/" in r["path"] else 1.0
            print(json.dumps({"id": r["id"], "outputs": {"score": score}}), flush=True)
        """.write(toFile: dir + "/label.py", atomically: true, encoding: .utf8)
        try """
        name: label
        description: the label program's score at 0.5
        source: test
        score: ext.score
        gates:
          - {output: ext.score, op: ge, value: 0.5, code: ATTACK, message: attack}
        """.write(toFile: dir + "/label.yaml", atomically: true, encoding: .utf8)
        return (dir, data, dir + "/label.yaml")
    }

    static func regress(_ base: String, _ data: String, _ profile: String, external: String, out: String) throws
        -> ProfileOutputsCLITests.Result
    {
        try ProfileOutputsCLITests.padbench(
            ["-c", "exec bash \"$0\" \"$@\"", root + "/scripts/regress.sh", base, data, profile],
            environment: [
                "PADBENCH": CommandLineTests.executable, "EXTERNAL": external, "OUT": out, "GATE": "accuracy",
            ], shell: true)
    }

    @Test func exitCodesAreCompares() throws {
        let (dir, data, profile) = try Self.setUp()
        defer { try? FileManager.default.removeItem(atPath: dir) }
        let good = "ext=python3 \(dir)/label.py 0"
        let base = try CommandLineTests.run([
            "bench", "--dataset", data, "--profiles", profile, "--external", good, "--quiet", "--out", dir + "/base",
        ])
        #expect(base.status == 0, "\(base.err)")
        let same = try Self.regress(dir + "/base/results.tar.zst", data, profile, external: good, out: dir + "/same")
        #expect(same.status == 0, "\(same.stdout) \(same.stderr)")
        // Every attack now scores 1: APCER 0% -> 100% on 40 attacks.
        let worse = try Self.regress(
            dir + "/base/results.tar.zst", data, profile, external: "ext=python3 \(dir)/label.py 1", out: dir + "/worse"
        )
        #expect(worse.status == 1, "\(worse.stdout) \(worse.stderr)")
        #expect(worse.stdout.contains("REGRESSED"))
        // Another dataset (the eval split alone): not comparable.
        let other = dir + "/other"
        try FileManager.default.copyItem(atPath: data, toPath: other)
        let kept = try String(contentsOfFile: other + "/manifest.csv", encoding: .utf8).split(separator: "\n")
            .filter { !$0.contains(",dev,") }
        try (kept.joined(separator: "\n") + "\n").write(
            toFile: other + "/manifest.csv", atomically: true, encoding: .utf8)
        let incomparable = try Self.regress(
            dir + "/base/results.tar.zst", other, profile, external: good, out: dir + "/other-run")
        #expect(incomparable.status == 2, "\(incomparable.stdout) \(incomparable.stderr)")
    }
}
