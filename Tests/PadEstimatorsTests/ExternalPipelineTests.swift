import Foundation
import PadVocabulary
import Testing

@testable import PadSamples
@testable import PadEstimators
@testable import PadExternal
@testable import PadImage

#if canImport(Glibc)
import Glibc
#endif

/// Pipelined and batched external programs (``ExternalChannel``): answers in any order matched by
/// id, batches, failures that touch only the requests they concern, restarts, nothing lost.
@Suite struct ExternalPipelineTests {
    /// A python3 program that declares `describe` (JSON text) and handles each request line with `body`
    /// (Python, with `request` the parsed line and `answer(obj)` printing one line).
    static func program(_ folder: String, describe: String, _ body: String) -> String {
        let script = """
            import json, os, sys, time, threading
            def answer(obj):
                sys.stdout.write(json.dumps(obj) + "\\n"); sys.stdout.flush()
            for line in sys.stdin:
                request = json.loads(line)
                if request.get("describe"):
                    answer(\(describe)); continue
            \(body.split(separator: "\n").map { "    " + $0 }.joined(separator: "\n"))
            """
        let path = folder + "/program-\(UUID().uuidString).py"
        try! script.write(toFile: path, atomically: true, encoding: .utf8)
        return "python3 " + path
    }

    static func input(_ id: String, image: Image = Image(width: 4, height: 3, format: .rgb)) -> EstimatorInput {
        EstimatorInput(sample: Sample(id: id, path: "/nonexistent/\(id).png", label: .bonaFide), image: image)
    }

    /// Runs `count` samples at once, each on a thread of its own (as `--concurrency count` does),
    /// and returns each sample's result by index.
    static func measureAll(_ estimator: ExternalEstimator, count: Int) -> [Int: Result<[Double], EstimatorFailure>] {
        let results = LockedResults()
        let group = DispatchGroup()
        for index in 0..<count {
            group.enter()
            Thread {
                defer { group.leave() }
                var input = Self.input("s\(index)")
                let result: Result<[Double], EstimatorFailure>
                do throws(EstimatorFailure) { result = .success(try estimator.measure(&input)) } catch {
                    result = .failure(error)
                }
                results.set(index, result)
            }.start()
        }
        group.wait()
        return results.values
    }

    final class LockedResults: @unchecked Sendable {
        private let lock = NSLock()
        private var stored: [Int: Result<[Double], EstimatorFailure>] = [:]
        func set(_ index: Int, _ result: Result<[Double], EstimatorFailure>) {
            lock.lock()
            stored[index] = result
            lock.unlock()
        }
        var values: [Int: Result<[Double], EstimatorFailure>] {
            lock.lock()
            defer { lock.unlock() }
            return stored
        }
    }

    @Test func declaredOptionsAreRead() throws {
        let none = try ExternalProtocolOptions.read(Array(#"{"outputs": ["score"]}"#.utf8))
        #expect(none == ExternalProtocolOptions() && !none.isConcurrent)
        let all = try ExternalProtocolOptions.read(
            Array(#"{"outputs": ["s"], "max_in_flight": 64, "batch": 8, "input": "rgb24", "faces": "all"}"#.utf8))
        #expect(all.maxInFlight == 64 && all.batch == 8 && all.input == .rgb24 && all.faces == .all)
        for bad in [
            #"{"max_in_flight": 0}"#, #"{"batch": 5000}"#, #"{"input": "png"}"#, #"{"batch": "8"}"#,
            #"{"faces": true}"#,
        ] {
            #expect(throws: AnswerError.self) { try ExternalProtocolOptions.read(Array(bad.utf8)) }
        }
        // The message names the field and what is wrong with it, not Swift's DecodingError.
        #expect {
            try ExternalProtocolOptions.read(Array(#"{"batch": "8"}"#.utf8))
        } throws: {
            "\($0)".hasSuffix("field 'batch' is not a whole number")
        }
        #expect {
            try ExternalProtocolOptions.read(Array(#"{"input": "png"}"#.utf8))
        } throws: {
            "\($0)".contains("field 'input': ")
        }
    }

    /// 60 requests in flight answered in reverse order of arrival: each sample gets its own value.
    @Test func answersOutOfOrderAreMatchedById() throws {
        let folder = ExternalProcessTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let command = Self.program(
            folder, describe: #"{"outputs": ["score"], "max_in_flight": 64}"#,
            """
            pending = globals().setdefault("pending", [])
            pending.append(request)
            if len(pending) == 8 or request["id"] == "flush":
                for r in reversed(pending): answer({"id": r["id"], "outputs": {"score": int(r["id"][1:])}})
                pending.clear()
            """)
        let estimator = try ExternalEstimator(name: "p", command: command, timeout: 20)
        defer { estimator.shutDown() }
        #expect(estimator.parameters["max_in_flight"] == "64" && estimator.parameters["processes"] == "1")
        let results = Self.measureAll(estimator, count: 64)
        #expect(results.count == 64)
        for (index, result) in results { #expect((try? result.get()) == [Double(index)], "\(index)") }
    }

    /// Batches: the program sees lines of up to 8 requests and answers each line at once.
    @Test func batchesAreSentAndAnsweredAsOneLine() throws {
        let folder = ExternalProcessTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let command = Self.program(
            folder, describe: #"{"outputs": ["score", "size"], "batch": 8}"#,
            """
            batch = request["batch"]
            assert 1 <= len(batch) <= 8
            time.sleep(0.05)
            answer({"batch": [{"id": r["id"], "outputs": {"score": int(r["id"][1:]), "size": len(batch)}} for r in batch]})
            """)
        let estimator = try ExternalEstimator(name: "b", command: command, timeout: 20)
        defer { estimator.shutDown() }
        let results = Self.measureAll(estimator, count: 48)
        var sizes: [Double] = []
        for (index, result) in results {
            let values = try result.get()
            #expect(values[0] == Double(index))
            sizes.append(values[1])
        }
        // Requests queued behind the first batch went out together.
        #expect(sizes.max()! > 1)
    }

    /// A batch answer missing an id fails that request alone; one with an id it was not asked, a
    /// duplicate id, or more answers than requests, fails the batch's requests and restarts the program.
    @Test func batchAnswersThatDisagreeWithTheBatch() throws {
        let folder = ExternalProcessTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let command = Self.program(
            folder, describe: #"{"outputs": ["score"], "batch": 4}"#,
            """
            answers = [{"id": r["id"], "outputs": {"score": 1}} for r in request["batch"]]
            ids = [r["id"] for r in request["batch"]]
            if "s3" in ids: answers = [a for a in answers if a["id"] != "s3"]
            if "s5" in ids: answers.append({"id": "s5", "outputs": {"score": 2}})
            if "s7" in ids: answers.append({"id": "never-asked", "outputs": {"score": 2}})
            answer({"batch": answers})
            """)
        let estimator = try ExternalEstimator(name: "b", command: command, timeout: 20)
        defer { estimator.shutDown() }
        var outcomes: [String: Result<[Double], EstimatorFailure>] = [:]
        for id in ["s1", "s3", "s5", "s6", "s7", "s8"] {
            var input = Self.input(id)
            do throws(EstimatorFailure) { outcomes[id] = .success(try estimator.measure(&input)) } catch {
                outcomes[id] = .failure(error)
            }
        }
        #expect((try? outcomes["s1"]!.get()) == [1] && (try? outcomes["s6"]!.get()) == [1])
        guard case .failure(let missing) = outcomes["s3"]! else { Issue.record("s3 should fail"); return }
        #expect(missing.message.contains("no answer for this id"))
        guard case .failure(let twice) = outcomes["s5"]! else { Issue.record("s5 should fail"); return }
        #expect(twice.message.contains("twice in one line"))
        guard case .failure(let other) = outcomes["s7"]! else { Issue.record("s7 should fail"); return }
        #expect(other.message.contains("'never-asked', which was not asked"))
        // After each restart the next request is answered by a new process.
        #expect((try? outcomes["s8"]!.get()) == [1], "\(outcomes["s8"]!)")
    }

    /// A program that dies with 60 requests in flight: each fails once (none is lost, none hangs),
    /// and the next request is answered by a restarted process.
    @Test func aProgramThatDiesWithRequestsInFlight() throws {
        let folder = ExternalProcessTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let marker = folder + "/died"
        let command = Self.program(
            folder, describe: #"{"outputs": ["score"], "max_in_flight": 64}"#,
            """
            seen = globals().setdefault("seen", [])
            seen.append(request["id"])
            if len(seen) == 60 and not os.path.exists(\(String(reflecting: marker))):
                open(\(String(reflecting: marker)), "w").close()
                os._exit(3)
            if os.path.exists(\(String(reflecting: marker))):
                answer({"id": request["id"], "outputs": {"score": 5}})
            """)
        let estimator = try ExternalEstimator(name: "d", command: command, timeout: 20)
        defer { estimator.shutDown() }
        let results = Self.measureAll(estimator, count: 60)
        #expect(results.count == 60)
        var failed = 0
        for (_, result) in results {
            if case .failure(let error) = result {
                failed += 1
                #expect(error.message.contains("exit status 3"), "\(error.message)")
            }
        }
        #expect(failed == 60)
        var next = Self.input("after")
        #expect(try estimator.measure(&next) == [5])
    }

    /// A line outstanding past the timeout fails its request alone when others are answered; its
    /// late answer is dropped.
    @Test func aSlowRequestTimesOutAlone() throws {
        let folder = ExternalProcessTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let command = Self.program(
            folder, describe: #"{"outputs": ["score"], "max_in_flight": 8}"#,
            """
            def later(r, delay):
                time.sleep(delay); answer({"id": r["id"], "outputs": {"score": 1}})
            threading.Thread(target=later, args=(request, 3.0 if request["id"] == "s0" else 0.05)).start()
            """)
        let estimator = try ExternalEstimator(name: "t", command: command, timeout: 1.0)
        defer { estimator.shutDown() }
        let results = Self.measureAll(estimator, count: 8)
        guard case .failure(let slow) = results[0]! else { Issue.record("s0 should time out"); return }
        #expect(slow.kind == .timeout)
        for index in 1..<8 { #expect((try? results[index]!.get()) == [1]) }
        Thread.sleep(forTimeInterval: 2.5) // s0's late answer arrives and is dropped
        var next = Self.input("s9")
        #expect(try estimator.measure(&next) == [1])
    }

    /// `"input": "rgb24"`: the request's pixels are the upright decoded image, byte for byte, in a
    /// PPM whose pixel bytes start at `offset`; the file is gone after the answer.
    @Test func pixelsAreTheDecodedImage() throws {
        let folder = ExternalProcessTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let command = Self.program(
            folder, describe: #"{"outputs": ["sum", "first", "offset", "upright"], "input": "rgb24"}"#,
            """
            p = request["pixels"]
            data = open(p["path"], "rb").read()
            header = data[:p["offset"]]
            pixels = data[p["offset"]:]
            assert header == b"P6\\n%d %d\\n255\\n" % (p["width"], p["height"]), header
            assert len(pixels) == p["stride"] * p["height"] and p["format"] == "rgb24"
            answer({"id": request["id"], "outputs": {"sum": sum(pixels), "first": pixels[0], "offset": p["offset"], "upright": 1 if request["upright"] else 0}})
            """)
        let estimator = try ExternalEstimator(name: "px", command: command, timeout: 20)
        defer { estimator.shutDown() }
        let image = Image(width: 5, height: 2, format: .rgb, pixels: (0..<30).map { UInt8($0 * 7) })
        var input = Self.input("s", image: image)
        let values = try estimator.measure(&input)
        #expect(values == [Double(image.pixels.map(Int.init).reduce(0, +)), 0, 11, 1])
        let left = try FileManager.default.contentsOfDirectory(atPath: NSTemporaryDirectory())
        #expect(!left.contains { $0.hasPrefix("padbench-frame-\(getpid())-") })
    }

    /// The dataset's box goes with the request when the detector found no face, and says so.
    @Test func theDatasetBoxIsSentWhenDetectionMisses() throws {
        var input = EstimatorInput(
            sample: Sample(
                id: "a", path: "a.png", label: .bonaFide, faceBox: Box(x: -5, y: 10, width: 30, height: 20)),
            image: Image(width: 100, height: 50, format: .rgb))
        var request = ExternalEstimator.request(input)
        #expect(request.face == [0, 10, 25, 20])
        #expect(request.faceSource == "dataset")
        input.face = Box(x: 1, y: 2, width: 3, height: 4)
        input.outputs["face.source"] = 0
        input.faces = [DetectedFace(box: Box(x: 1, y: 2, width: 3, height: 4), score: 0.9)]
        request = ExternalEstimator.request(input, faces: .all)
        #expect(request.face == [1, 2, 3, 4] && request.faceSource == "detector")
        #expect(request.faces == [[1, 2, 3, 4, 0.9]])
        #expect(request.orientation == 1 && request.upright == true)
        // On the wire: snake_case keys, absent fields left out, paths unescaped.
        let line = try ExternalRequest.line([request], batched: true)
        let wire = try #require(try JSONSerialization.jsonObject(with: Data(line)) as? [String: Any])
        let sent = try #require((wire["batch"] as? [[String: Any]])?.first)
        #expect(Set(sent.keys) == ["id", "path", "face", "face_source", "faces", "orientation", "upright"])
        #expect(String(decoding: line, as: UTF8.self).contains(#""path":"a.png""#))
    }
}

/// Still images stored with each EXIF orientation: the request says the orientation and whether the
/// file is upright, and `rgb24` pixels are padbench's own upright decode, byte for byte.
@Suite struct ExternalOrientationTests {
    /// `jpeg` with an APP1 Exif segment (big-endian TIFF, one IFD entry 0x0112) saying `orientation`.
    static func withOrientation(_ jpeg: [UInt8], _ orientation: UInt8) -> [UInt8] {
        let tiff: [UInt8] = [
            0x4D, 0x4D, 0x00, 0x2A, 0, 0, 0, 8, // "MM", 42, first IFD at 8
            0, 1, // one entry
            0x01, 0x12, 0, 3, 0, 0, 0, 1, 0, orientation, 0, 0, // Orientation, SHORT, 1 value
            0, 0, 0, 0, // no next IFD
        ]
        let payload = Array("Exif".utf8) + [0, 0] + tiff
        let length = payload.count + 2
        return [0xFF, 0xD8, 0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + payload + jpeg.dropFirst(2)
    }

    @Test func everyOrientationGetsUprightPixels() throws {
        let folder = ExternalProcessTests.folder()
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let command = ExternalPipelineTests.program(
            folder, describe: #"{"outputs": ["sum", "width", "height", "orientation", "upright"], "input": "rgb24"}"#,
            """
            p = request["pixels"]
            pixels = open(p["path"], "rb").read()[p["offset"]:]
            answer({"id": request["id"], "outputs": {"sum": sum(pixels), "width": p["width"], "height": p["height"], "orientation": request["orientation"], "upright": 1 if request["upright"] else 0}})
            """)
        let estimator = try ExternalEstimator(name: "o", command: command, timeout: 20)
        defer { estimator.shutDown() }
        let original = try [UInt8](
            Data(contentsOf: URL(fileURLWithPath: OnnxReferences.root + "/datasets/sample/eval/bonafide/000000.jpg")))
        for orientation in UInt8(1)...8 {
            let path = folder + "/o\(orientation).jpg"
            try Data(Self.withOrientation(original, orientation)).write(to: URL(fileURLWithPath: path))
            // As the pipeline decodes a still: the upright image and the orientation its file states.
            let (image, stored) = try ImageDecoder().decodeWithOrientation(fileAt: path)
            #expect(stored == Int(orientation))
            var input = EstimatorInput(
                sample: Sample(id: "o\(orientation)", path: path, label: .bonaFide), image: image)
            input.storedOrientation = stored
            let values = try estimator.measure(&input)
            let sum = Double(image.pixels.reduce(0) { $0 + Int($1) })
            #expect(
                values == [
                    sum, Double(image.width), Double(image.height), Double(orientation), orientation == 1 ? 1 : 0,
                ])
            // Orientations 5-8 turn the 640x480 photo on its side.
            #expect(image.width == (orientation >= 5 ? 480 : 640), "\(orientation)")
        }
    }
}
