import Dispatch
import Foundation
import PadImage
import PadText
import PadVideo
import PadVocabulary

extension SyntheticDatasetGenerator {
    /// Most frames a generated clip may have.
    package static let maximumClipFrames = 300

    /// Writes `count` synthetic clips (``ClipSynthesizer``) and `manifest.csv`, planned like the
    /// still images of ``generate(into:count:seed:species:width:height:concurrency:)`` (clip `i`
    /// is bona fide when `i` is even; splits by subject) and drawn from
    /// `SplitMix64(seed: seed ^ fnv("clip-<i>"))`, so the same arguments give the same bytes.
    /// Clips are `<split>/<label folder>/<i>.<avi|mkv>`; the manifest gives no face box (the face
    /// moves from frame to frame).
    @discardableResult
    package func generateClips(
        into folder: String, count: Int, seed: UInt64, species: [PresentationSynthesizer.Kind] = [.print, .replay],
        width: Int = 320, height: Int = 240, frames: Int = 15, codec: VideoEncoder.Codec = .mpeg4,
        concurrency: Int = ProcessInfo.processInfo.activeProcessorCount
    ) throws -> Int {
        let attackKinds = species.filter { $0 != .bonafide }
        if let problem = Self.problem(count: count, attackKinds: attackKinds.count, width: width, height: height) {
            throw DatasetProblem(.badLayout, file: folder, problem)
        }
        guard width % 2 == 0, height % 2 == 0, (1...Self.maximumClipFrames).contains(frames) else {
            throw DatasetProblem(
                .badLayout, file: folder,
                "clips need an even width and height and 1 to \(Self.maximumClipFrames) frames")
        }
        let synthesizer = ClipSynthesizer(width: width, height: height, frames: frames)
        let splitOf = splits(seed: seed)
        let plan = self.plan(count: count, attackKinds: attackKinds, splitOf: splitOf).map { item in
            (item.kind, item.source, String(item.relative.dropLast(3)) + codec.fileExtension)
        }
        for folderName in Set(plan.map { Paths.parent($0.2) }) {
            try FileManager.default.createDirectory(
                atPath: folder + "/" + folderName, withIntermediateDirectories: true)
        }
        let results = UnsafeMutableBufferPointer<String>.allocate(capacity: count)
        results.initialize(repeating: "")
        defer { results.deinitialize(); results.deallocate() }
        // Safety: worker w writes only the slots i % workers == w, read after concurrentPerform returns.
        nonisolated(unsafe) let out = results
        let workers = max(1, concurrency)
        DispatchQueue.concurrentPerform(iterations: workers) { worker in
            for i in stride(from: worker, to: count, by: workers) {
                let item = plan[i]
                var rng = SplitMix64(seed: seed ^ Shard.fnv1a64("clip-\(i)"))
                do {
                    let clip = synthesizer.make(item.0, from: item.1.image, face: item.1.face, rng: &rng)
                    let bytes = try synthesizer.encode(clip.frames, codec: codec)
                    try Data(bytes).write(to: URL(fileURLWithPath: folder + "/" + item.2))
                    let label = item.0 == .bonafide ? "bonafide" : "attack"
                    let speciesName = item.0 == .bonafide ? "" : item.0.rawValue
                    let split = (splitOf[item.1.subject] ?? .eval).rawValue
                    out[i] = [item.2, label, speciesName, split, item.1.subject, "", "", "", ""].joined(separator: ",")
                } catch {
                    out[i] = "!\(item.2): \(error)"
                }
            }
        }
        if let failure = results.first(where: { $0.hasPrefix("!") }) {
            throw DatasetProblem(.undecodable, file: folder, "generation failed: \(failure.dropFirst())")
        }
        let manifest = (["path,label,species,split,subject,x,y,w,h"] + Array(results)).joined(separator: "\n") + "\n"
        try manifest.write(toFile: folder + "/manifest.csv", atomically: true, encoding: .utf8)
        return count
    }
}
