import Foundation
import Testing
@testable import PadArchive
@testable import PadBench
@testable import PadDataset
@testable import PadVocabulary
@testable import PadEstimators
@testable import PadEvaluation
@testable import PadImage
@testable import PadProfiles
@testable import PadReport

/// Typed column keys end to end: estimators declare the options they read, a run measures those
/// (and only those) once more per option set, the manifest stores the column layout, and stored
/// runs are read back through it.
@Suite struct ColumnLayoutTests {
    /// An estimator that reports the option it was built with: 1 with `use_dataset_box`, else 0.
    struct Probe: Estimator {
        let name = "probe"
        let version = "1"
        let boxed: Bool
        static let readsOptions: Set<EstimatorOptionName> = [.useDatasetFaceBox]
        let outputs: [OutputDescriptor] = [
            .init(name: "boxed", unit: "", range: 0...1, direction: .none, summary: "1 with dataset boxes")
        ]
        let parameters: [String: String] = [:]
        func measure(_ input: inout EstimatorInput) throws(EstimatorFailure) -> [Double] { [boxed ? 1 : 0] }
    }

    /// The same probe declaring no option: one measurement serves every profile.
    struct Blind: Estimator {
        let name = "blind"
        let version = "1"
        let boxed: Bool
        let outputs: [OutputDescriptor] = [
            .init(name: "boxed", unit: "", range: 0...1, direction: .none, summary: "1 with dataset boxes")
        ]
        let parameters: [String: String] = [:]
        func measure(_ input: inout EstimatorInput) throws(EstimatorFailure) -> [Double] { [boxed ? 1 : 0] }
    }

    static let registry = EstimatorRegistry(entries: [
        .init(name: "probe", summary: "", readsOptions: Probe.readsOptions) { Probe(boxed: $0.useDatasetFaceBox) },
        .init(name: "blind", summary: "", readsOptions: Blind.readsOptions) { Blind(boxed: $0.useDatasetFaceBox) },
    ])

    static func profile(_ name: String, boxed: Bool) throws -> Profile {
        try ProfileLoader().load(
            yaml: """
                name: \(name)
                source: test
                \(boxed ? "options: {face: {use_dataset_box: true}}" : "")
                gates:
                  - {output: probe.boxed, op: ge, value: 0.5}
                  - {output: blind.boxed, op: le, value: 0.5}
                """, file: "\(name).yaml")
    }

    static func dataset(_ root: String) throws -> LoadedDataset {
        for (i, folder) in ["bonafide", "attack/print", "bonafide", "attack/print"].enumerated() {
            Fixture.write(try ImageEncoder.png(Fixture.image(contrast: 20 + i, seed: i)), root + "/\(folder)/\(i).png")
        }
        return try DatasetLoader().load(root)
    }

    /// A new estimator that declares `readsOptions` gets columns of its own for a profile with
    /// options (no list of option-dependent estimators to edit), one that declares none is measured
    /// once; the manifest's `columns` is the layout, in column order, as estimator, output and variant.
    @Test func estimatorsDeclareTheOptionsTheyRead() async throws {
        let root = Fixture.folder()
        let job = BenchJob(
            dataset: try Self.dataset(root + "/data"),
            profiles: [try Self.profile("plain", boxed: false), try Self.profile("boxed", boxed: true)],
            outputFolder: root + "/run", concurrency: 1)
        let outcome = try await BenchRunner(registry: Self.registry).run(job)
        let boxed = MeasurementVariant(options: [.useDatasetFaceBox])
        #expect(
            outcome.table.keys == [
                ColumnKey(estimator: "probe", output: "boxed"), ColumnKey(estimator: "blind", output: "boxed"),
                ColumnKey(estimator: "probe", output: "boxed", variant: boxed),
            ])
        #expect(outcome.table.columns == ["probe.boxed", "blind.boxed", "probe.boxed@dataset_box"])
        // plain reads probe 0 (rejects everything), boxed reads its own probe 1 and the shared blind 0.
        let plain = outcome.results[0].reported.headline, boxedRun = outcome.results[1].reported.headline
        #expect(plain?.bpcer.errors == 2 && plain?.apcerMax.errors == 0)
        #expect(boxedRun?.bpcer.errors == 0 && boxedRun?.apcerMax.errors == 2)
        let stored = try Data(contentsOf: URL(fileURLWithPath: root + "/run/manifest.json"))
        #expect(try RunManifest.decode(from: Array(stored)).columns == outcome.table.keys)
        let text = String(decoding: stored, as: UTF8.self)
        #expect(text.contains("\"output\" : \"boxed\",\n      \"variant\" : \"dataset_box\""))
    }

    /// A stored run's layout must name its `samples.csv` columns; without one (older archives)
    /// the headers are parsed.
    @Test func storedLayoutIsCheckedAgainstTheHeaders() throws {
        let headers = ["face.count", "face.count@dataset_box"]
        let parsed = try MeasurementTable.layout(nil, headers: headers, path: "old.tar.zst")
        #expect(parsed.map(\.variant.isDefault) == [true, false])
        #expect(try MeasurementTable.layout(parsed, headers: headers, path: "new.tar.zst") == parsed)
        #expect(throws: EvaluationError.self) {
            try MeasurementTable.layout(Array(parsed.reversed()), headers: headers, path: "edited.tar.zst")
        }
    }
}
