import Foundation
import Testing
@testable import PadSamples
@testable import PadEstimators
@testable import PadExternal
@testable import PadImage
import TestSupport

/// Hostile inputs to the estimators stay bounded (issue 25): a cascade nested 50,000 deep, an
/// external program whose `describe` lists an output twice or names one outside the output-name
/// grammar, and an answer line that never ends.
@Suite struct BoundedInputTests {
    static func file(_ text: String, _ name: String = #function) -> String {
        let path = TestFolder.root + "/padbench-bounded-\(name.filter(\.isLetter))-\(UUID().uuidString)"
        try! text.write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    /// 50,000 nested elements used to overflow the stack when the element tree was released
    /// (one recursive deinit per level): now refused while parsing, at depth 65.
    @Test func cascadeNested50000DeepIsRefusedWithItsLine() throws {
        let depth = 50_000
        let xml =
            "<?xml version=\"1.0\"?>\n<opencv_storage>\n<cascade>\n" + String(repeating: "<a>", count: depth)
            + String(repeating: "</a>", count: depth) + "</cascade></opencv_storage>\n"
        let path = Self.file(xml)
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: CascadeError.malformed("\(path): XML error at line 4: elements nested more than 64 deep")) {
            try CascadeClassifier(contentsOfFile: path)
        }
    }

    /// An element name that is not UTF-8 made FoundationXML trap (found by FuzzCascadeXML in its
    /// first seconds): refused before parsing.
    @Test func cascadeWithAnElementNameThatIsNotUTF8IsRefused() throws {
        let bytes =
            Array("<?xml version=\"1.0\"?>\n<opencv_storage>\n<cascade>\n<maxWeakCou".utf8) + [0xEE]
            + Array("t>1</maxWeakCount>\n</cascade>\n</opencv_storage>\n".utf8)
        let path = TestFolder.root + "/padbench-bounded-utf8-\(UUID().uuidString).xml"
        FileManager.default.createFile(atPath: path, contents: Data(bytes))
        defer { try? FileManager.default.removeItem(atPath: path) }
        #expect(throws: CascadeError.malformed("\(path): not UTF-8 text (OpenCV's cascades are ASCII)")) {
            try CascadeClassifier(contentsOfFile: path)
        }
    }

    /// The tree itself is released without recursion: a chain far deeper than the parser allows;
    /// an element still held elsewhere keeps its children.
    @Test func elementChainOfAMillionIsReleasedWithoutRecursion() {
        var top: XMLElement? = XMLElement(name: "top")
        let kept = XMLElement(name: "kept")
        kept.children = [XMLElement(name: "leaf")]
        top!.children = [kept]
        top = nil
        #expect(kept.children.map(\.name) == ["leaf"])
        var root: XMLElement? = XMLElement(name: "root")
        var last = root!
        for _ in 0..<1_000_000 {
            let child = XMLElement(name: "a")
            last.children.append(child)
            last = child
        }
        root = nil
        #expect(root == nil && last.children.isEmpty)
    }

    @Test func cascadeThatIsADirectoryIsNotCalledMissing() throws {
        let folder = TestFolder.root + "/padbench-bounded-dir-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        #expect(throws: CascadeError.missing("\(folder): is a directory, not a file")) {
            try CascadeClassifier(contentsOfFile: folder)
        }
    }

    /// A python3 program answering `describe` with `outputs` (a JSON literal), then 0.5 per output.
    static func describing(_ outputs: String, _ name: String = #function) -> String {
        let script = """
            import json, sys
            for line in sys.stdin:
                request = json.loads(line)
                if request.get("describe"):
                    print(json.dumps({"outputs": \(outputs), "version": "t"}), flush=True)
                else:
                    print(json.dumps({"id": request["id"], "outputs": {}}), flush=True)
            """
        return "python3 " + Self.file(script, name)
    }

    static func setupMessage(_ command: String) -> String? {
        do {
            let estimator = try ExternalEstimator(name: "ext", command: command, timeout: 10)
            estimator.shutDown()
            return nil
        } catch {
            return "\(error)"
        }
    }

    /// `describe` listing an output twice crashed bench (duplicate dictionary keys) and left a
    /// `.partial`: now the estimator is refused before any sample.
    @Test func describeWithAnOutputTwiceIsRefused() throws {
        let message = try #require(Self.setupMessage(Self.describing(#"["score", "quality", "score"]"#)))
        #expect(message.contains("answered describe with output 'score' twice"), "\(message)")
    }

    /// Names that profiles and archives refuse (`@`, space, newline, NUL, a dot) are refused here.
    @Test(arguments: [#""a@b""#, #""two words""#, #""line\nbreak""#, #""nul\u0000""#, #""x.y""#, #""""#])
    func describeWithANameOutsideTheGrammarIsRefused(_ name: String) throws {
        let message = try #require(Self.setupMessage(Self.describing("[\(name)]")))
        #expect(
            message.contains("answered describe with a bad name: ") && message.contains("output name"), "\(message)")
        #expect(!message.contains("\n") && !message.contains("\u{0}"), "\(message)")
    }

    @Test func describeWithGoodNamesStillWorks() throws {
        let estimator = try ExternalEstimator(
            name: "ext", command: Self.describing(#"["score", "quality_2", "p-value"]"#), timeout: 10)
        defer { estimator.shutDown() }
        #expect(estimator.outputs.map(\.name) == ["score", "quality_2", "p-value"])
    }

    /// A 4 MB answer line without a newline used to be rescanned after every 64 KB read until the
    /// timeout; now the sample fails as soon as the line passes 1 MiB, naming the limit.
    @Test func answerLineOverTheLimitFailsAtOnce() throws {
        let script = """
            import json, sys, time
            for line in sys.stdin:
                request = json.loads(line)
                if request.get("describe"):
                    print(json.dumps({"outputs": ["score"], "version": "t"}), flush=True)
                else:
                    sys.stdout.write("x" * (4 << 20))
                    sys.stdout.flush()
                    time.sleep(60)
            """
        let estimator = try ExternalEstimator(name: "ext", command: "python3 " + Self.file(script), timeout: 30)
        defer { estimator.shutDown() }
        var input = EstimatorInput(
            sample: Sample(id: "a.jpg", path: "/nonexistent/a.jpg", label: .bonaFide),
            image: Image(width: 4, height: 4, format: .gray))
        let started = Date()
        var failure: EstimatorFailure?
        do { _ = try estimator.measure(&input) } catch { failure = error }
        let message = try #require(failure).message
        #expect(message.contains("answer line longer than 1048576 bytes"), "\(message)")
        #expect(Date().timeIntervalSince(started) < 20)
    }
}
