import Foundation
import Testing

/// Labels of video lines reach their frames: a manifest row labels a video, whose samples are its
/// frames (`<video>#<k>`). Before, the label table was keyed by the manifest id alone: a video
/// dataset with `group.*` columns got a header-only `labels.csv` and a `fairness.csv` of 0 groups.
@Suite struct VideoLabelsCLITests {
    @Test func groupsOfVideoRowsLabelEveryFrame() throws {
        let root = ProfileOutputsCLITests.root
        let dir = CommandLineTests.folder()
        try FileManager.default.copyItem(atPath: root + "/datasets/sample/video", toPath: dir + "/data/video")
        let manifest = try String(contentsOfFile: root + "/datasets/sample/manifest.csv", encoding: .utf8)
        var text = "path,label,species,split,subject,group.sex\n"
        for line in manifest.split(separator: "\n") where line.hasPrefix("video/") {
            let f = line.split(separator: ",", omittingEmptySubsequences: false)
            text += f[0..<5].joined(separator: ",") + (f[4] == "eileen-collins" ? ",F\n" : ",M\n")
        }
        try text.write(toFile: dir + "/data/manifest.csv", atomically: true, encoding: .utf8)
        let run = dir + "/run"
        let bench = try CommandLineTests.run([
            "bench", "--dataset", dir + "/data", "--profiles", "basic", "--estimators", "quality", "--quiet", "--out",
            run,
        ])
        #expect(bench.status == 0, "\(bench.err)")
        let labels = try String(contentsOfFile: run + "/labels.csv", encoding: .utf8).split(separator: "\n")
        #expect(labels.count == 1 + 64)
        #expect(labels[1] == "video/eval/bonafide/clip000000.avi#0,F")
        #expect(labels.contains("video/dev/bonafide/clip000002.avi#7,M"))
        // The eval split's presentations are all of one subject, of group F: one group, 1 subject.
        let fairness = try String(contentsOfFile: run + "/fairness.csv", encoding: .utf8)
        #expect(fairness.contains("basic,eval,presentation,group.sex,F,bpcer,,0,0,2,"), "\(fairness)")
        #expect(fairness.contains("basic,eval,presentation,group.sex,F,subjects,,1,,,,,fewer than 2 subjects"))
        #expect(fairness.contains("basic,eval,presentation,group.sex,,groups,,1,"))
        // One group: no pair to compare, so no FDR (it read 1, "perfectly fair").
        #expect(fairness.contains("basic,eval,presentation,group.sex,,fdr,,,,,,,alpha=0.5"), "\(fairness)")
        try? FileManager.default.removeItem(atPath: dir)
    }
}
