import Dispatch
import Foundation
import PadImage
import PadText
import PadVocabulary

/// Writes a synthetic PAD dataset: bona fide and attack presentations made from source photos by
/// ``PresentationSynthesizer``, plus `manifest.csv` with splits, subjects and face boxes.
///
/// Example: `SynthesisTests.sameArgumentsGiveIdenticalBytesAndSubjectsNeverShareSplits`
/// in `Tests/PadDatasetTests/SynthesisTests.swift` (compiled and run by `swift test`).
/// Splits are by subject: subjects are shuffled with the seed and dealt to eval, dev, train in
/// turn, so one person's photos never appear in two splits. Half the images are bona fide, the
/// rest are shared equally among the requested species; sources are used in turn. Image `i` draws
/// its parameters from `SplitMix64(seed: seed ^ fnv(i))`, so output is byte-identical for the same
/// arguments whatever the number of threads.
package struct SyntheticDatasetGenerator: Sendable {
    package struct Source: Sendable {
        package var file: String
        package var subject: String
        package var face: Box
        package var image: Image
    }

    package let sources: [Source]

    /// Reads `sources.csv` (`file,subject,x,y,w,h,licence`) in the folder and decodes each photo.
    package init(sourcesFolder: String) throws {
        let path = sourcesFolder + "/sources.csv"
        let data: [UInt8]
        do { data = try RegularFile.read(path) } catch {
            throw DatasetProblem(.missingFile, file: path, "cannot read the sources list: \(error.message)")
        }
        let records = try CSVLines.parse(data, path: path)
        guard let header = records.first, header.fields.prefix(6) == ["file", "subject", "x", "y", "w", "h"] else {
            throw DatasetProblem(.badLine, file: path, line: 1, "header must start with file,subject,x,y,w,h")
        }
        var sources: [Source] = []
        for record in records.dropFirst() {
            let f = record.fields
            guard f.count >= 6, let x = Double(f[2]), let y = Double(f[3]), let w = Double(f[4]), let h = Double(f[5]),
                w > 0, h > 0
            else {
                throw DatasetProblem(
                    .badLine, file: path, line: record.line, "expected file,subject,x,y,w,h with a positive box")
            }
            let image: Image
            do { image = try ImageDecoder().decode(fileAt: sourcesFolder + "/" + f[0]) } catch {
                throw DatasetProblem(.undecodable, file: sourcesFolder + "/" + f[0], "\(error)")
            }
            sources.append(Source(file: f[0], subject: f[1], face: Box(x: x, y: y, width: w, height: h), image: image))
        }
        guard !sources.isEmpty else { throw DatasetProblem(.badLine, file: path, "no sources listed") }
        self.sources = sources
    }

    /// Subject -> split, dealt eval, dev, train after a seeded shuffle.
    package func splits(seed: UInt64) -> [String: Split] {
        var subjects = Array(Set(sources.map(\.subject))).sorted()
        var rng = SplitMix64(seed: seed)
        subjects.shuffle(using: &rng)
        let order: [Split] = [.eval, .dev, .train]
        return Dictionary(uniqueKeysWithValues: subjects.enumerated().map { ($1, order[$0 % 3]) })
    }

    /// Most images one call generates (its plan is held in memory).
    package static let maximumCount = 1_000_000
    /// Largest side of a generated image, in pixels.
    package static let maximumSide = 8192

    /// Why these arguments cannot be generated, checked before anything is allocated; nil when fine.
    package static func problem(count: Int, attackKinds: Int, width: Int, height: Int) -> String? {
        if attackKinds == 0 { return "at least one attack species is needed (print, replay)" }
        if count < 1 || count > maximumCount { return "count must be 1 to \(maximumCount), not \(count)" }
        if !(32...maximumSide).contains(width) || !(32...maximumSide).contains(height) {
            return "size must be 32 to \(maximumSide) pixels a side, not \(width)x\(height)"
        }
        return nil
    }

    @discardableResult
    package func generate(
        into folder: String, count: Int, seed: UInt64,
        species: [PresentationSynthesizer.Kind] = [.print, .replay],
        width: Int = 640, height: Int = 480, concurrency: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws -> Int {
        let attackKinds = species.filter { $0 != .bonafide }
        if let problem = Self.problem(count: count, attackKinds: attackKinds.count, width: width, height: height) {
            throw DatasetProblem(.badLayout, file: folder, problem)
        }
        let synthesizer = PresentationSynthesizer(width: width, height: height)
        let splitOf = splits(seed: seed)
        let fm = FileManager.default
        try fm.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let plan = self.plan(count: count, attackKinds: attackKinds, splitOf: splitOf)
        for folderName in Set(plan.map { Paths.parent($0.relative) }) {
            try fm.createDirectory(atPath: folder + "/" + folderName, withIntermediateDirectories: true)
        }
        let rows = UnsafeMutableBufferPointer<String>.allocate(capacity: count)
        rows.initialize(repeating: "")
        defer { rows.deinitialize(); rows.deallocate() } // deinitialize releases the strings (LeakSanitizer)
        let failures = UnsafeMutableBufferPointer<String>.allocate(capacity: count)
        failures.initialize(repeating: "")
        defer { failures.deinitialize(); failures.deallocate() }
        let workers = max(1, concurrency)
        // Safety: worker w writes only the slots i % workers == w, read after concurrentPerform returns.
        nonisolated(unsafe) let rowsOut = rows, failuresOut = failures
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for i in stride(from: worker, to: count, by: workers) {
                let item = plan[i]
                var rng = SplitMix64(seed: seed ^ Shard.fnv1a64("image-\(i)"))
                do {
                    let made = try synthesizer.make(
                        item.kind, from: item.source.image, face: item.source.face, rng: &rng)
                    try Data(made.jpeg).write(to: URL(fileURLWithPath: folder + "/" + item.relative))
                    rowsOut[i] = Self.manifestRow(
                        item, split: splitOf[item.source.subject] ?? .eval,
                        face: made.face.clipped(width: width, height: height))
                } catch {
                    failuresOut[i] = "\(item.relative): \(error)"
                }
            }
        }
        if let failure = failures.first(where: { !$0.isEmpty }) {
            throw DatasetProblem(.undecodable, file: folder, "generation failed: \(failure)")
        }
        let manifest = (["path,label,species,split,subject,x,y,w,h"] + Array(rows)).joined(separator: "\n") + "\n"
        try manifest.write(toFile: folder + "/manifest.csv", atomically: true, encoding: .utf8)
        return count
    }

    /// One image to generate: its kind, source photo and path in the dataset.
    typealias PlannedImage = (kind: PresentationSynthesizer.Kind, source: Source, relative: String)

    /// Image `i` is bona fide when `i` is even, else the next attack species in turn; it draws on
    /// source `(i / 2) % sources` and lies under `<split>/bonafide/` or `<split>/attack/<species>/`
    /// as `<i>.jpg` (six digits), the split being its source subject's.
    func plan(count: Int, attackKinds: [PresentationSynthesizer.Kind], splitOf: [String: Split]) -> [PlannedImage] {
        (0..<count).map { i in
            let kind: PresentationSynthesizer.Kind =
                i % 2 == 0 ? .bonafide : attackKinds[(i / 2 / sources.count) % attackKinds.count]
            let source = sources[(i / 2) % sources.count]
            let split = splitOf[source.subject] ?? .eval
            let name = String(format: "%06d.jpg", i)
            let relative = "\(split.rawValue)/\(kind == .bonafide ? "bonafide" : "attack/\(kind.rawValue)")/\(name)"
            return (kind, source, relative)
        }
    }

    /// The image's `manifest.csv` row: path, label, species, split, subject, face box to 0.1 pixel.
    static func manifestRow(_ item: PlannedImage, split: Split, face box: Box) -> String {
        let label = item.kind == .bonafide ? "bonafide" : "attack"
        let species = item.kind == .bonafide ? "" : item.kind.rawValue
        return [
            item.relative, label, species, split.rawValue, item.source.subject,
            String(format: "%.1f", box.x), String(format: "%.1f", box.y),
            String(format: "%.1f", box.width), String(format: "%.1f", box.height),
        ].joined(separator: ",")
    }
}
