import ArgumentParser
import Foundation
import PadDataset
import PadVideo

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
                loaded = try datasetLayout.loader().load(folder, layout: datasetLayout.layout)
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
        @Option(help: "Output size WxH (default 640x480, clips 320x240).") var size: String?
        @Flag(help: "Write short video clips instead of still images.") var video = false
        @Option(help: "Frames per clip (with --video).") var clipFrames: Int = 15
        @Option(help: "Clip codec (with --video): mpeg4 or mjpeg in .avi, ffv1 in .mkv.") var codec: String = "mpeg4"

        func run() throws {
            let kinds = try species.split(separator: ",").map { name -> PresentationSynthesizer.Kind in
                guard let kind = PresentationSynthesizer.Kind(rawValue: String(name)), kind != .bonafide else {
                    throw ValidationError("unknown species '\(name)' (print, replay)")
                }
                return kind
            }
            let parts = (size ?? (video ? "320x240" : "640x480")).split(
                separator: "x", omittingEmptySubsequences: false
            )
            .map { Int($0) }
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
            if video {
                guard let clipCodec = VideoEncoder.Codec(rawValue: codec) else {
                    throw ValidationError("--codec must be mpeg4, mjpeg or ffv1")
                }
                try generator.generateClips(
                    into: out, count: count, seed: seed, species: kinds, width: width, height: height,
                    frames: clipFrames, codec: clipCodec)
                let seconds = Date().timeIntervalSince(start)
                print(
                    "wrote \(count) clips of \(clipFrames) frames and manifest.csv to \(out) in \(String(format: "%.2f", seconds)) s"
                )
                return
            }
            try generator.generate(into: out, count: count, seed: seed, species: kinds, width: width, height: height)
            let seconds = Date().timeIntervalSince(start)
            print(
                "wrote \(count) images and manifest.csv to \(out) in \(String(format: "%.2f", seconds)) s "
                    + "(\(String(format: "%.1f", Double(count) / seconds)) images/s)"
            )
        }
    }
}
