import Foundation
import Testing
@testable import PadDataset
@testable import PadImage

/// `group.*` and `attr.*` labels: manifest columns, and CelebA-Spoof's 40 attributes,
/// illumination, environment and the groups made from them.
@Suite struct SampleLabelsTests {
    @Test func manifestColumns() throws {
        let root = temporaryFolder()
        for name in ["a.jpg", "b.jpg", "c.jpg"] { touch(root + "/" + name, try PublicLayoutTests.jpeg(32, 32)) }
        try """
        path,label,species,split,subject,Group.Sex,attr.eyeglasses,attr.,notes
        a.jpg,bonafide,,eval,s1,female,1,x,n
        b.jpg,attack,print,eval,s2, male ,0,y,n
        bad.jpg,alien,print,eval,s3,male,0,z,n
        c.jpg,bonafide,,eval,s3,,,w,n
        """.write(toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        let loaded = try DatasetLoader().load(root)
        // `attr.` alone names nothing; `notes` is not a label column; the line with an unknown
        // label is a problem and has no label row.
        #expect(loaded.labels.names == ["group.sex", "attr.eyeglasses"])
        #expect(Array(loaded.labels.ids) == ["a.jpg", "b.jpg", "c.jpg"])
        #expect(loaded.labels.csvRow(1) == ["b.jpg", "male", "0"])
        #expect(loaded.labels.values(of: "group.sex") == ["a.jpg": "female", "b.jpg": "male"])
        #expect(loaded.problems.count == 1)
    }

    @Test func celebASpoofAttributes() throws {
        let root = temporaryFolder()
        touch(root + "/Data/test/7/live/000001.jpg", try PublicLayoutTests.jpeg(224, 224))
        try FileManager.default.createDirectory(atPath: root + "/metas/intra_test", withIntermediateDirectories: true)
        var v = Array(repeating: 0, count: 44)
        v[15] = 1 // Eyeglasses
        v[20] = 1 // Male
        v[41] = 3 // illumination: dark
        v[42] = 1 // environment: outdoor
        try """
        {
        "Data/test/7/live/000001.jpg": [\(v.map(String.init).joined(separator: ", "))]
        }
        """.write(toFile: root + "/metas/intra_test/test_label.json", atomically: true, encoding: .utf8)
        let loaded = try DatasetLoader().load(root)
        #expect(loaded.labels.names.count == 45)
        let row = Dictionary(uniqueKeysWithValues: zip(loaded.labels.csvHeader, loaded.labels.csvRow(0)))
        #expect(row["attr.eyeglasses"] == "1" && row["attr.male"] == "1" && row["attr.smiling"] == "0")
        #expect(row["attr.illumination"] == "dark" && row["attr.environment"] == "outdoor")
        #expect(row["group.sex"] == "male" && row["group.age"] == "not_young" && row["group.skin"] == "not_pale")
    }
}
