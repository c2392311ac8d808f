import Foundation
import Testing
@testable import PadBench
@testable import PadDataset
@testable import PadEstimators
@testable import PadImport
@testable import PadProfiles

/// Vendor exports built from the formats documented in docs/formats.md.
@Suite struct ImportTests {
    static func dataset() throws -> (LoadedDataset, String) {
        let root = Fixture.folder()
        try """
        path,label,species,split,subject
        a.jpg,bonafide,,eval,s1
        b.jpg,bonafide,,eval,s2
        c.jpg,attack,print,eval,s3
        d.jpg,attack,replay,eval,s4
        """.write(toFile: root + "/manifest.csv", atomically: true, encoding: .utf8)
        return (try DatasetLoader().load(root), root)
    }

    static let lunaProfile = try! ProfileLoader(catalogue: EstimatorCatalog.knownOutputs()).load(
        yaml: """
            name: osl
            source: test
            score: luna.liveness
            gates:
              - {output: luna.liveness, op: ge, value: 0.5, code: "1004", message: Liveness check not passed}
            """, file: "osl.yaml")

    @Test func lunaOSLResponsesJoinAndScore() throws {
        let (dataset, root) = try Self.dataset()
        try """
        [{"filename": "a.jpg", "status": 1, "liveness": {"prediction": \
        1, "estimations": {"probability": 0.93, "quality": 0.8}},
          "error": {"error_code": 0, "desc": "Success", "detail": "", "link": ""}},
         {"filename": "b.jpg", "status": 0, "error": {"error_code": \
        1005, "desc": "Face not found", "detail": "", "link": ""}},
         {"filename": "c.jpg", "status": 1, "liveness": {"prediction": \
        1, "estimations": {"probability": 0.61, "quality": 0.7}},
          "error": {"error_code": 0, "desc": "Success", "detail": "", "link": ""}}]
        """.write(toFile: root + "/osl.json", atomically: true, encoding: .utf8)
        let outcome = try ImportRunner().run(
            format: .lunaOSL, dataset: dataset, inputs: [root + "/osl.json"],
            profiles: [Self.lunaProfile], outputFolder: root + "/run")
        #expect(outcome.matched == 3)
        #expect(outcome.table.statuses.map(\.field) == ["ok", "ok", "ok", "missing_vendor_result"])
        #expect(outcome.table.column(named: "luna.liveness")![0] == 0.93)
        #expect(outcome.table.column(named: "luna.liveness")![1].isNaN) // LUNA error 1005: rejected, not failed
        #expect(outcome.table.column(named: "luna.error_code")![1] == 1005)
        let point = outcome.results[0].headline!
        #expect(point.bpcer == .init(errors: 1, total: 2)) // b rejected (not assessable)
        // C accepted at 0.61.
        #expect(point.apcer[point.speciesNames.firstIndex(of: "print")!] == .init(errors: 1, total: 1))
        #expect(outcome.results[0].failedCount == 1)
    }

    @Test func idemiaNoDecisionFollowsThePolicy() throws {
        let (dataset, root) = try Self.dataset()
        try "id,status\na.jpg,Live\nb.jpg,NoDecision\nc.jpg,Fake\nd.jpg,Unknown\n".write(
            toFile: root + "/idemia.csv", atomically: true, encoding: .utf8)
        let fta = try ImportRunner().run(
            format: .idemiaStatus, noDecision: .fta, dataset: dataset, inputs: [root + "/idemia.csv"],
            profiles: [], outputFolder: root + "/fta")
        #expect(fta.table.statuses.map(\.field) == ["ok", "no_decision", "ok", "no_liveness_run"])
        let accept = try ImportRunner().run(
            format: .idemiaStatus, noDecision: .accept, dataset: dataset, inputs: [root + "/idemia.csv"],
            profiles: [], outputFolder: root + "/accept")
        #expect(accept.table.column(named: "idemia.live")!.prefix(3).map { $0 } == [1, 1, 0])
    }

    @Test func misnapStringValuesAndFileStems() throws {
        let (dataset, root) = try Self.dataset()
        try """
        {"Parameters": {"LivenessThreshold": 500, "EyeMinDistance": 90},
         "UXP": [{"SA": [0]}, {"FFQ": [1200, "812"]}, {"FFL": [1200, 640]}, {"FFS": [1201, "355"]},
                 {"FFD": [1201, 118]}, {"FEF": [900, 990]}, {"FSD": [1500]}, {"FEL": [1600, 2]}]}
        """.write(toFile: root + "/a.json", atomically: true, encoding: .utf8)
        let outcome = try ImportRunner().run(
            format: .misnapMibi, dataset: dataset, inputs: [root + "/a.json"], profiles: [],
            outputFolder: root + "/run")
        let row = outcome.table.columns.enumerated().map { ($1, outcome.table.values[$0][0]) }
        #expect(
            Dictionary(uniqueKeysWithValues: row) == [
                "misnap.quality": 812, "misnap.lighting": 640, "misnap.sharpness": 355,
                "misnap.eye_distance": 118, "misnap.face_found": 990, "misnap.live": 0, "misnap.spoof": 1,
                "misnap.auto_capture": 1, "misnap.still_capture": 0, "misnap.failover": 0,
            ])
    }

    /// MiSnap's UXP table: FPL, FSD, SA, SS and MF are time-only events, `[ms_since_start]`, no
    /// value. A document-conformant file imports (it aborted the import before), each event is a
    /// 0/1 output, and misnap-mibi decides on them: FPL without FSD is accepted, FSD rejected with
    /// flag 4, neither rejected with flag 2.
    @Test func misnapTimeOnlyEventsImportAndDecide() throws {
        let (dataset, root) = try Self.dataset()
        let measures = #"{"FFD": [1201, 118]}, {"FFL": [1200, 640]}, {"FFS": [1201, 355]}"#
        let files = [
            "a": #"{"UXP": [{"SA": [597]}, \#(measures), {"FPL": [2800]}]}"#,
            "b": #"{"UXP": [{"SS": [10]}, \#(measures), {"FSD": [2800]}, {"MF": [2900]}]}"#,
            "c": #"{"UXP": [\#(measures)]}"#,
        ]
        for (stem, text) in files { try text.write(toFile: root + "/\(stem).json", atomically: true, encoding: .utf8) }
        let outcome = try ImportRunner().run(
            format: .misnapMibi, dataset: dataset, inputs: ["a", "b", "c"].map { root + "/\($0).json" },
            profiles: [try ProfileLoader().builtIn("misnap-mibi")], outputFolder: root + "/run")
        func column(_ name: String) -> [Double] { Array(outcome.table.column(named: name)!.prefix(3)) }
        #expect(column("misnap.live") == [1, 0, 0] && column("misnap.spoof") == [0, 1, 0])
        #expect(column("misnap.auto_capture") == [1, 0, 0] && column("misnap.still_capture") == [0, 1, 0])
        #expect(column("misnap.failover") == [0, 1, 0])
        let result = try #require(outcome.results.first)
        #expect(result.gatesLeftOut.isEmpty)
        #expect(Dictionary(uniqueKeysWithValues: result.rejectReasons.map { ($0.code, $0.count) }) == ["4": 1, "2": 1])
    }

    @Test func badExportsAreClearErrorsAndNothingIsWritten() throws {
        let (dataset, root) = try Self.dataset()
        func fails(_ format: VendorFormat, _ text: String, contains expected: String) throws {
            let file = root + "/bad-\(UUID().uuidString)"
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            let out = root + "/out-\(UUID().uuidString)"
            #expect {
                try ImportRunner().run(
                    format: format, dataset: dataset, inputs: [file], profiles: [], outputFolder: out)
            } throws: {
                "\($0)".contains(expected)
            }
            #expect(!FileManager.default.fileExists(atPath: out + "/results.tar.zst"))
        }
        try fails(
            .lunaOSL, #"[{"filename": "zz.jpg", "liveness": {"prediction": 1, "estimations": {"probability": 0.5}}}]"#,
            contains: "matches no sample")
        try fails(
            .lunaOSL, #"{"filename": "a.jpg", "liveness": {"prediction": 1, "estimations": {"probability": "high"}}}"#,
            contains: "probability must be a number")
        try fails(.lunaOSL, #"{"liveness": {}}"#, contains: "missing or non-text 'filename'")
        try fails(.idemiaStatus, "id,status\na.jpg,Maybe\n", contains: ":2: status 'Maybe'")
        try fails(.misnapMibi, #"{"UXP": [{"FFQ": [1, "lots"]}]}"#, contains: "is not a number")
        // A time-only event with a value would be read as having occurred whatever the value says.
        try fails(.misnapMibi, #"{"UXP": [{"FSD": [1500, "0"]}]}"#, contains: "UXP[0] FSD is a time-only event")
        try fails(.misnapMibi, #"{"UXP": [{"FPL": ["soon"]}]}"#, contains: "UXP[0] FPL is a time-only event")
        try fails(.misnapMibi, #"{"UXP": [{"FFD": [118]}]}"#, contains: "UXP[0] FFD must be [ms_since_start, value]")
    }
}
