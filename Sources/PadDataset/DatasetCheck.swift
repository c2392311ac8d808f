import Foundation
import PadImage
import PadText
import PadVideo
import PadVocabulary

/// What `padbench dataset check` reports: counts by label, species, split and subject, and every
/// problem (loader problems, missing files, images that fail to decode, duplicate content, videos
/// that cannot be opened), and for datasets of videos or frames the frames per presentation.
///
/// Example: `PadDatasetDocExamples.loaderAndCheck`
/// in `Tests/PadDatasetTests/DocExamplesTests.swift` (compiled and run by `swift test`).
package struct DatasetCheck: Sendable {
    package var dataset: LoadedDataset
    package var byLabel: [String: Int] = [:]
    package var bySpecies: [String: Int] = [:]
    package var bySplit: [String: Int] = [:]
    package var bySubject: [String: Int] = [:]
    /// Samples (frames) per presentation, when some presentation has several or a video was listed.
    package var framesPerPresentation: [Int] = []
    /// Presentations per label, species, split and subject (the same keys as the sample counts),
    /// when the dataset has presentations: ISO/IEC 30107-3 counts presentations, not frames.
    package var presentationsByLabel: [String: Int] = [:], presentationsBySpecies: [String: Int] = [:]
    package var presentationsBySplit: [String: Int] = [:], presentationsBySubject: [String: Int] = [:]
    package var problems: [DatasetProblem]

    /// Decodes every image (to find damaged ones) and hashes its bytes (FNV-1a 64) to find
    /// duplicates; `decode: false` only checks that files exist.
    package static func run(_ dataset: LoadedDataset, decode: Bool = true, decoder: ImageDecoder = ImageDecoder())
        -> DatasetCheck
    {
        var check = DatasetCheck(dataset: dataset, problems: dataset.problems)
        var firstWithHash: [UInt64: String] = [:]
        let realRoot = ManifestLayout.realPath(dataset.root) ?? dataset.root
        check.countPresentations()
        for video in dataset.videos {
            guard let error = video.error else { continue }
            check.problems.append(
                DatasetProblem(
                    .undecodable, file: dataset.root + "/" + video.presentation,
                    "video cannot be opened: \(error.statusCode.rawValue): \(error)"))
        }
        for sample in dataset.samples {
            check.byLabel[sample.label.csvLabel, default: 0] += 1
            if let species = sample.label.species { check.bySpecies[species, default: 0] += 1 }
            check.bySplit[sample.split == .none ? "(none)" : sample.split.rawValue, default: 0] += 1
            if !sample.subject.isEmpty { check.bySubject[sample.subject, default: 0] += 1 }
            // A video was opened (or found unopenable) when the dataset was listed; its frames are
            // not read one by one.
            if sample.frameIndex != nil || VideoFiles.isVideo(sample.path) { continue }
            if let target = ManifestLayout.leavesRoot(root: realRoot, path: sample.path) {
                check.problems.append(
                    DatasetProblem(
                        .escapesRoot, file: sample.path,
                        "symbolic link to '\(TextBytes.quote(target))', "
                            + "outside the dataset folder (sample \(TextBytes.quote(sample.id)))"
                    ))
                continue
            }
            let bytes: [UInt8]
            // The decoder's read: bounded by its byte limit, never more than stat announced.
            do { bytes = try decoder.read(sample.path) } catch {
                if case .missingFile(_, let reason) = error {
                    check.problems.append(
                        DatasetProblem(
                            .missingFile, file: sample.path,
                            "missing or unreadable: \(reason) (sample \(TextBytes.quote(sample.id)))"))
                } else {
                    check.problems.append(
                        DatasetProblem(.undecodable, file: sample.path, "\(error.statusCode.rawValue): \(error)"))
                }
                continue
            }
            let hash = FNV1a.hash(bytes: bytes)
            if let first = firstWithHash[hash] {
                check.problems.append(DatasetProblem(.duplicateContent, file: sample.path, "same bytes as \(first)"))
            } else {
                firstWithHash[hash] = sample.id
            }
            if decode {
                do { _ = try decoder.decode(bytes) } catch {
                    check.problems.append(
                        DatasetProblem(.undecodable, file: sample.path, "\(error.statusCode.rawValue): \(error)"))
                }
            }
        }
        return check
    }

    /// Frames per presentation, in the order of first appearance (frames of one presentation
    /// need not be adjacent in a manifest).
    mutating func countPresentations() {
        let samples = dataset.samples
        guard samples.hasPresentations || !dataset.videos.isEmpty else { return }
        var counts: [String: Int] = [:]
        for i in samples.indices {
            let sample = samples[i]
            counts[sample.presentation, default: 0] += 1
            // A presentation's first frame carries its label, species, split and subject (the loader
            // refuses a presentation that spans two).
            guard counts[sample.presentation] == 1 else { continue }
            presentationsByLabel[sample.label.csvLabel, default: 0] += 1
            if let species = sample.label.species { presentationsBySpecies[species, default: 0] += 1 }
            presentationsBySplit[sample.split == .none ? "(none)" : sample.split.rawValue, default: 0] += 1
            if !sample.subject.isEmpty { presentationsBySubject[sample.subject, default: 0] += 1 }
        }
        framesPerPresentation = counts.values.sorted()
    }

    /// `presentations: N; frames per presentation: min a, median b, max c` and the video counts.
    var presentationText: String {
        guard let least = framesPerPresentation.first, let most = framesPerPresentation.last else { return "" }
        let n = framesPerPresentation.count
        let middle =
            n % 2 == 1
            ? Double(framesPerPresentation[n / 2])
            : Double(framesPerPresentation[n / 2 - 1] + framesPerPresentation[n / 2]) / 2
        var out =
            "presentations: \(n); frames per presentation: min \(least), median \(String(format: "%g", middle)), "
            + "max \(most)\n"
        let videos = dataset.videos
        if !videos.isEmpty {
            let failed = videos.filter { $0.error != nil }.count
            let held = videos.filter { $0.error == nil }.map(\.frameCount).sorted()
            out += "videos: \(videos.count) (\(failed) cannot be opened)"
            if let first = held.first, let last = held.last {
                out += "; frames in the files: min \(first), max \(last)"
            }
            out += "\n"
        }
        return out
    }

    /// `1 presentation`, `2 presentations`.
    static func count(_ n: Int) -> String { "\(n) presentation\(n == 1 ? "" : "s")" }

    package var text: String {
        let framed = !framesPerPresentation.isEmpty
        /// `  bonafide: 72 samples, 44 presentations` when the dataset has presentations.
        func section(_ title: String, _ counts: [String: Int], _ presentations: [String: Int]) -> String {
            guard !counts.isEmpty else { return "" }
            return "\(title):\n"
                + counts.sorted { $0.key < $1.key }.map {
                    "  \(TextBytes.quote($0.key)): \($0.value)"
                        + (framed
                            ? " sample\($0.value == 1 ? "" : "s"), \(Self.count(presentations[$0.key] ?? 0))" : "")
                }.joined(separator: "\n") + "\n"
        }
        var out =
            "dataset \(TextBytes.quote(dataset.root)) (layout \(dataset.layout.rawValue)): \(dataset.samples.count) samples\n"
        out += presentationText
        out +=
            section("label", byLabel, presentationsByLabel) + section("species", bySpecies, presentationsBySpecies)
            + section("split", bySplit, presentationsBySplit)
        if bySubject.count <= 50 {
            out += section("subject", bySubject, presentationsBySubject)
        } else {
            out += "subjects: \(bySubject.count)\n"
        }
        out +=
            problems.isEmpty
            ? "no problems found\n"
            : "\(problems.count) problem(s):\n" + problems.map { "  \($0)" }.joined(separator: "\n") + "\n"
        return out
    }
}
