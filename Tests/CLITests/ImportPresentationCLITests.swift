import Foundation
import Testing

/// Vendors decide per presentation (one capture attempt), so an import row may be keyed by a
/// presentation: a video's path as the dataset lists it, its file name or stem. Its result applies
/// to every frame of the video and the run decides per presentation, as bench does. Before, a key
/// naming a video was "matches no sample" and the import stopped.
@Suite struct ImportPresentationCLITests {
    typealias CLI = CommandLineTests
    static let root = ProfileOutputsCLITests.root

    /// One IDEMIA status per presentation of the sample (80 stills, 8 clips): Live for bona fide,
    /// Fake for attacks; the first clip's row is keyed by its file stem.
    static func statuses(_ dir: String) throws -> String {
        let manifest = try String(contentsOfFile: root + "/datasets/sample/manifest.csv", encoding: .utf8)
        var text = "id,status\n", seen = Set<String>()
        for line in manifest.split(separator: "\n").dropFirst() {
            let f = line.split(separator: ",", omittingEmptySubsequences: false).map(String.init)
            guard seen.insert(f[0]).inserted else { continue }
            let key = f[0] == "video/eval/bonafide/clip000000.avi" ? "clip000000" : f[0]
            text += "\(key),\(f[1] == "bonafide" ? "Live" : "Fake")\n"
        }
        let path = dir + "/statuses.csv"
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func aRowPerPresentationDecidesThePresentation() throws {
        let dir = CLI.folder()
        let input = try Self.statuses(dir)
        let result = try CLI.run(
            [
                "import", "idemia-status", "--dataset", "datasets/sample", "--input", input, "--profiles",
                "idemia-status", "--out", dir + "/run",
            ], in: Self.root)
        #expect(result.status == 0, "\(result.err)")
        #expect(result.out.contains("vendor results matched 144"), "\(result.out)")
        #expect(result.out.contains("counted in presentations: 88 presentations of 144 frames"), "\(result.out)")
        // Every presentation decided as the vendor did: no bona fide rejected, no attack accepted.
        #expect(result.out.contains("0.0% (0/11)") && result.out.contains("0.0% (0/22)"), "\(result.out)")
        let decided = try String(contentsOfFile: dir + "/run/presentation_decisions.csv", encoding: .utf8)
        let rows = decided.split(separator: "\n").dropFirst()
        #expect(rows.count == 88)
        #expect(rows.contains { $0.hasPrefix("video/eval/bonafide/clip000000.avi,idemia-status,eval,bonafide,,ok,1") })
        // samples.csv carries the presentation columns: the run re-decides and compares with itself.
        let samples = try String(contentsOfFile: dir + "/run/samples.csv", encoding: .utf8)
        #expect(samples.hasPrefix("id,path,label,species,split,subject,presentation,frame,time,status,error,"))
        let same = try CLI.run(["compare", dir + "/run", dir + "/run"])
        #expect(same.status == 0, "\(same.out)\(same.err)")
    }

    @Test func aPresentationAndOneOfItsFramesIsTwoResults() throws {
        let dir = CLI.folder()
        var text = try String(contentsOfFile: try Self.statuses(dir), encoding: .utf8)
        text += "video/eval/bonafide/clip000000.avi#0,Live\n"
        try text.write(toFile: dir + "/twice.csv", atomically: true, encoding: .utf8)
        let result = try CLI.run(
            [
                "import", "idemia-status", "--dataset", "datasets/sample", "--input", dir + "/twice.csv", "--out",
                dir + "/run",
            ], in: Self.root)
        #expect(result.status == 1, "\(result.out)\(result.err)")
        #expect(
            result.err.contains("twice.csv:90: second result for video/eval/bonafide/clip000000.avi#0"), "\(result.err)"
        )
        #expect(!FileManager.default.fileExists(atPath: dir + "/run"))
        let nothing = try CLI.run(
            [
                "import", "idemia-status", "--dataset", "datasets/sample", "--input", dir + "/none.csv", "--out",
                dir + "/none",
            ], in: Self.root)
        #expect(nothing.status != 0)
    }
}
