import Foundation
import Testing

@testable import PadONNX
import PadVocabulary

/// ``OnnxSession``: a model read, hashed and described by padbench; hostile files refused in one
/// line naming the file, never a crash.
@Suite struct OnnxSessionTests {
    static let runtime = try! OnnxRuntime.load()
    static let fixtures = repositoryRoot + "/Tests/PadONNXTests/Fixtures"
    static let v2 = repositoryRoot + "/models/minifasnet/2.7_80x80_MiniFASNetV2.onnx"

    /// The committed model's SHA-256 equals `sha256sum`'s (models/README.md) and its tensors are
    /// described as the file declares them.
    @Test func describesAndHashesTheModel() throws {
        let session = try OnnxSession(runtime: Self.runtime, path: Self.v2)
        #expect(session.sha256 == "4433e871ef03f6c4c13de1757e63dcd69db14b6d7d9cff2319cb274c0f6dbecb")
        #expect(session.byteCount == 1_750_284)
        #expect(session.inputs.count == 1 && session.inputs[0].shape == [1, 3, 80, 80] && session.inputs[0].isFloat)
        #expect(session.outputs.count == 1 && session.outputs[0].shape == [1, 3])
        // A constant input runs and gives 3 finite logits.
        let logits = try session.run([Float](repeating: 128, count: 3 * 80 * 80), shape: [1, 3, 80, 80])
        #expect(logits.count == 1 && logits[0].shape == [1, 3] && logits[0].values.allSatisfy(\.isFinite))
        // A wrong input size is an error of the run, not a crash.
        let wrong = #expect(throws: OnnxError.self) { try session.run([1, 2, 3], shape: [1, 3]) }
        #expect(wrong?.kind == .run)
        let shape = #expect(throws: OnnxError.self) {
            try session.run([Float](repeating: 0, count: 10), shape: [1, 3])
        }
        #expect(shape?.message.contains("does not fill the shape") == true)
    }

    /// The dynamic-batch copy gives each item of a batch the logits it gets alone.
    @Test func batchesEqualSingleRuns() throws {
        let batch = try OnnxSession(
            runtime: Self.runtime, path: repositoryRoot + "/models/minifasnet/2.7_80x80_MiniFASNetV2.batch.onnx")
        #expect(batch.inputs[0].shape == [-1, 3, 80, 80])
        var generator = SplitMix64(seed: 7)
        let items = (0..<5).map { _ in (0..<(3 * 80 * 80)).map { _ in Float(generator.next() % 256) } }
        let together = try batch.run(items.flatMap { $0 }, shape: [5, 3, 80, 80])[0].values
        for (index, item) in items.enumerated() {
            let alone = try batch.run(item, shape: [1, 3, 80, 80])[0].values
            for k in 0..<3 { #expect(abs(alone[k] - together[index * 3 + k]) <= 1e-5) }
        }
        let batcher = OnnxBatcher(session: batch, itemShape: [3, 80, 80], maxBatch: 4, runners: 1)
        let first = try batcher.run(items[0])
        #expect(first[0].shape == [3] && first[0].values.count == 3)
        #expect(batcher.counts == (batches: 1, items: 1))
    }

    /// Every hostile model file is one line naming the file.
    @Test func refusesHostileModelFiles() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("padbench-onnx-\(getpid())").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let original = try Data(contentsOf: URL(fileURLWithPath: Self.v2))
        try original.prefix(original.count / 2).write(to: URL(fileURLWithPath: folder + "/truncated.onnx"))
        try Data("definitely not a protobuf\n".utf8).write(to: URL(fileURLWithPath: folder + "/text.onnx"))
        try Data().write(to: URL(fileURLWithPath: folder + "/empty.onnx"))
        // 2 GiB of holes: refused by size before a byte is read.
        let sparse = folder + "/sparse.onnx"
        FileManager.default.createFile(atPath: sparse, contents: nil)
        let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: sparse))
        try handle.truncate(atOffset: 2 << 30)
        try handle.close()
        mkfifo(folder + "/fifo.onnx", 0o600)
        let cases: [(String, String)] = [
            (folder + "/truncated.onnx", "is not a model ONNX Runtime 1.32.0 can load"),
            (folder + "/text.onnx", "is not a model ONNX Runtime 1.32.0 can load"),
            (folder + "/empty.onnx", "the model file is empty"),
            (sparse, "is 2147483648 bytes, above the limit of 1073741824"),
            (folder + "/fifo.onnx", "is a FIFO (named pipe), not a regular file"),
            (folder, "is a directory, not a file"),
            (folder + "/missing.onnx", "no such file"),
            (Self.fixtures + "/int64_identity.onnx", "has a tensor that is not float32 (x int64[1x4], y int64[1x4])"),
        ]
        for (path, words) in cases {
            let error = #expect(throws: OnnxError.self) { try OnnxSession(runtime: Self.runtime, path: path) }
            #expect(error?.message.hasPrefix(path) == true, "\(error?.message ?? "")")
            #expect(error?.message.contains(words) == true, "\(path): \(error?.message ?? "")")
            #expect(error?.message.contains("\n") == false)
        }
        // A valid float model whose input is no image loads here; the image estimators refuse it by shape.
        let vector = try OnnxSession(runtime: Self.runtime, path: Self.fixtures + "/vector_identity.onnx")
        #expect(vector.inputs[0].shape == [1, 10])
    }
}
