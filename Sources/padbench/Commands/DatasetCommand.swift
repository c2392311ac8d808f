import ArgumentParser
import Foundation
import PadDataset

/// `padbench dataset check|synth`.
struct DatasetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "dataset",
        abstract: "Check a dataset, or generate a synthetic one.",
        subcommands: [Check.self, Synth.self]
    )

    struct Check: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Count samples by label, species, split and subject; list every problem with file and line.",
            discussion:
                "Exits 1 when problems were found (missing files, bad manifest lines, undecodable or duplicate images)."
        )

        @Argument(help: "Dataset folder.") var folder: String
        @OptionGroup var datasetLayout: DatasetLayoutOptions
        @Flag(help: "Only check that files exist; do not decode them.") var noDecode = false

        func run() throws {
            let loaded: LoadedDataset
            do {
                loaded = try DatasetLoader(ouluProtocol: datasetLayout.ouluProtocol, ouluFold: datasetLayout.ouluFold)
                    .load(folder, layout: datasetLayout.layout)
            } catch {
                // A missing folder or unreadable manifest is bad data, not a bad command line.
                throw RuntimeFailure("\(error)")
            }
            let report = DatasetCheck.run(loaded, decode: !noDecode)
            print(report.text, terminator: "")
            if !report.problems.isEmpty { throw ExitCode(1) }
        }
    }

    struct Synth: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Generate synthetic bona fide, print and replay presentations from source photos.",
            discussion:
                "Deterministic: the same arguments give byte-identical files. See "
                + "Sources/PadDataset/Synthesis/README.md for the models and parameter ranges."
        )

        @Option(help: "Folder with sources.csv (file,subject,x,y,w,h,licence) and the photos.") var sources: String =
            "datasets/sources"
        @Option(help: "Output folder (gets manifest.csv and split/label folders).") var out: String
        @Option(help: "Number of images (half bona fide).") var count: Int = 100
        @Option(help: "Seed of every random draw.") var seed: UInt64 = 1
        @Option(help: "Attack species, comma-separated (print, replay).") var species: String = "print,replay"
        @Option(help: "Output size WxH.") var size: String = "640x480"

        func run() throws {
            let kinds = try species.split(separator: ",").map { name -> PresentationSynthesizer.Kind in
                guard let kind = PresentationSynthesizer.Kind(rawValue: String(name)), kind != .bonafide else {
                    throw ValidationError("unknown species '\(name)' (print, replay)")
                }
                return kind
            }
            let parts = size.split(separator: "x", omittingEmptySubsequences: false).map { Int($0) }
            let side = SyntheticDatasetGenerator.maximumSide
            guard parts.count == 2, let width = parts[0], let height = parts[1], (32...side).contains(width),
                (32...side).contains(height)
            else {
                throw ValidationError("--size must be WxH with 32 to \(side) pixels a side, e.g. 640x480")
            }
            guard !kinds.isEmpty else { throw ValidationError("--species needs at least one of print, replay") }
            guard (1...SyntheticDatasetGenerator.maximumCount).contains(count) else {
                throw ValidationError("--count must be 1 to \(SyntheticDatasetGenerator.maximumCount)")
            }
            let generator = try SyntheticDatasetGenerator(sourcesFolder: sources)
            let start = Date()
            try generator.generate(into: out, count: count, seed: seed, species: kinds, width: width, height: height)
            let seconds = Date().timeIntervalSince(start)
            print(
                "wrote \(count) images and manifest.csv to \(out) in \(String(format: "%.2f", seconds)) s "
                    + "(\(String(format: "%.1f", Double(count) / seconds)) images/s)"
            )
        }
    }
}
