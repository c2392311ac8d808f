import Foundation
import PadText
import PadVocabulary
import Yams

/// How a user's ONNX model (`--onnx NAME=SPEC.yaml`) is fed and read: the spec file beside the
/// model, checked before the run with located errors.
///
/// Example: `examples/onnx/minifasnet-v2.yaml`, run by `OnnxModelTests.specReproducesMiniFASNetV2`
/// in `Tests/PadEstimatorsTests/OnnxModelTests.swift` (the same numbers as `minifasnet.v2`).
///
/// Keys (every one checked, an unknown key refused with its line):
/// - `model`: the .onnx file, relative to the spec's folder;
/// - `input`: `width`, `height` (the model's input size; checked against the model when it fixes it),
///   `layout` (`nchw`, planar, default, or `nhwc`), `color` (`rgb` default, `bgr`, or `gray`:
///   OpenCV's luma weights), `scale`, `mean`, `std` (value = (pixel x scale - mean[c]) / std[c],
///   per channel in the model's colour order; defaults 1/255, 0, 1);
/// - `crop`: `region` (`face`, the chosen face box, default, or `image`) and `scale` (the box scaled
///   about its centre and shifted inside the image, default 1);
/// - `output`: `name` (default the model's first output), `softmax` (over the last dimension
///   first, default false), `bona_fide_class` (the index in the last dimension that is the bona
///   fide score, default 0);
/// - `batch`: the largest batch (more than 1 needs a dynamic batch dimension; default 1).
///
/// The crop is upstream Silent-Face-Anti-Spoofing's rule (``FaceCrop``)
/// and the resize OpenCV's `INTER_LINEAR` (``PadImage/Image/resizedLinear(x0:y0:regionWidth:regionHeight:width:height:)``),
/// the pre-processing most PAD networks were trained with. The estimator's one output is
/// `NAME.score`, higher = bona fide; NaN when `region: face` and no face was found.
package struct OnnxModelSpec: Sendable, Equatable {
    package enum Layout: String, Sendable { case nchw, nhwc }
    package typealias Color = ChannelOrder
    package enum Region: String, Sendable { case face, image }

    package var model: String
    package var width: Int
    package var height: Int
    package var layout: Layout = .nchw
    package var color: Color = .rgb
    package var scale: Double = 1.0 / 255
    package var mean: [Double] = []
    package var std: [Double] = []
    package var region: Region = .face
    package var cropScale: Double = 1
    package var outputName: String?
    package var softmax = false
    package var bonaFideClass = 0
    package var batch = 1
    /// SHA-256 of the spec file (set by ``read(_:)``), so two runs with the same spec merge.
    package var sha256 = ""

    package var channels: Int { color == .gray ? 1 : 3 }

    /// A problem in a spec file, with its line (0 when the file as a whole is wrong).
    package struct Problem: Error, Sendable, Equatable, CustomStringConvertible {
        package var file: String
        package var line: Int
        package var message: String
        package var description: String {
            line > 0 ? "\(MessageText.quote(file)):\(line): \(message)" : "\(MessageText.quote(file)): \(message)"
        }
    }

    /// Spec files larger than this are refused before they are read.
    package static let maximumBytes = 1 << 20

    /// Reads and checks the spec at `path`; `model` comes back absolute (relative to the spec's folder).
    package static func read(_ path: String) throws(Problem) -> OnnxModelSpec {
        let bytes: [UInt8]
        do { bytes = try RegularFile.read(path, limit: maximumBytes) } catch {
            throw Problem(file: path, line: 0, message: error.message)
        }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            throw Problem(file: path, line: 0, message: "the spec file is not UTF-8 text")
        }
        var spec = try parse(text, file: path)
        spec.sha256 = SHA256.hex(bytes)
        if !spec.model.hasPrefix("/") {
            let folder = (path as NSString).deletingLastPathComponent
            spec.model = (folder.isEmpty ? "." : folder) + "/" + spec.model
        }
        return spec
    }

    /// The spec in `text` (the `model` path as written).
    package static func parse(_ text: String, file: String) throws(Problem) -> OnnxModelSpec {
        let root: Node
        do {
            guard let node = try Yams.compose(yaml: text) else {
                throw Problem(
                    file: file, line: 1, message: "empty spec: give at least `model`, `input: {width, height}`")
            }
            root = node
        } catch let problem as Problem {
            throw problem
        } catch let error as YamlError {
            throw Problem(file: file, line: yamlLine(error), message: "YAML syntax: \(MessageText.quote("\(error)"))")
        } catch {
            throw Problem(file: file, line: 1, message: "YAML syntax: \(MessageText.quote("\(error)"))")
        }
        let reader = Reader(file: file)
        let top = try reader.mapping(root, "the spec", keys: ["model", "input", "crop", "output", "batch"])
        guard let modelNode = top["model"] else {
            throw Problem(file: file, line: root.mark?.line ?? 1, message: "`model` (the .onnx file) is missing")
        }
        let input = try top["input"].map { node throws(Problem) in
            try reader.mapping(node, "input", keys: ["width", "height", "layout", "color", "scale", "mean", "std"])
        }
        guard let input, let widthNode = input["width"], let heightNode = input["height"] else {
            throw Problem(
                file: file, line: top["input"]?.mark?.line ?? root.mark?.line ?? 1,
                message: "`input` needs `width` and `height` (the model's input size in pixels)")
        }
        var spec = OnnxModelSpec(
            model: try reader.string(modelNode, "model"), width: try reader.int(widthNode, "input.width", 1...8192),
            height: try reader.int(heightNode, "input.height", 1...8192))
        if let node = input["layout"] { spec.layout = try reader.choice(node, "input.layout") }
        if let node = input["color"] { spec.color = try reader.choice(node, "input.color") }
        if let node = input["scale"] { spec.scale = try reader.number(node, "input.scale") }
        if let node = input["mean"] { spec.mean = try reader.numbers(node, "input.mean", count: spec.channels) }
        if let node = input["std"] {
            spec.std = try reader.numbers(node, "input.std", count: spec.channels)
            if spec.std.contains(0) { throw reader.problem(node, "`input.std` must not hold 0 (it divides)") }
        }
        if let node = top["crop"] {
            let crop = try reader.mapping(node, "crop", keys: ["region", "scale"])
            if let region = crop["region"] { spec.region = try reader.choice(region, "crop.region") }
            if let scale = crop["scale"] {
                spec.cropScale = try reader.number(scale, "crop.scale")
                if !(spec.cropScale > 0 && spec.cropScale <= 100) {
                    throw reader.problem(scale, "`crop.scale` must be above 0 and at most 100")
                }
            }
        }
        if let node = top["output"] {
            let output = try reader.mapping(node, "output", keys: ["name", "softmax", "bona_fide_class"])
            if let name = output["name"] { spec.outputName = try reader.string(name, "output.name") }
            if let softmax = output["softmax"] { spec.softmax = try reader.bool(softmax, "output.softmax") }
            if let index = output["bona_fide_class"] {
                spec.bonaFideClass = try reader.int(index, "output.bona_fide_class", 0...65535)
            }
        }
        if let node = top["batch"] { spec.batch = try reader.int(node, "batch", 1...1024) }
        return spec
    }

    private static func yamlLine(_ error: YamlError) -> Int {
        if case .scanner(_, _, let mark, _) = error { return mark.line }
        if case .parser(_, _, let mark, _) = error { return mark.line }
        if case .composer(_, _, let mark, _) = error { return mark.line }
        return 1
    }

    /// Typed reads of YAML nodes with the node's line in every error.
    private struct Reader {
        var file: String

        func problem(_ node: Node, _ message: String) -> Problem {
            Problem(file: file, line: node.mark?.line ?? 0, message: message)
        }

        func mapping(_ node: Node, _ what: String, keys: Set<String>) throws(Problem) -> [String: Node] {
            guard let mapping = node.mapping else { throw problem(node, "\(what) must be a mapping (key: value)") }
            var result: [String: Node] = [:]
            for (key, value) in mapping {
                guard let name = key.string, keys.contains(name) else {
                    let known = keys.sorted().joined(separator: ", ")
                    throw problem(
                        key, "unknown key '\(MessageText.quote(key.string ?? "?"))' in \(what) (known: \(known))")
                }
                result[name] = value
            }
            return result
        }

        func string(_ node: Node, _ what: String) throws(Problem) -> String {
            guard let text = node.scalar?.string, !text.isEmpty else { throw problem(node, "`\(what)` must be text") }
            return text
        }

        func number(_ node: Node, _ what: String) throws(Problem) -> Double {
            guard let value = node.scalar.flatMap({ Double($0.string) }), value.isFinite else {
                throw problem(node, "`\(what)` must be a finite number")
            }
            return value
        }

        func int(_ node: Node, _ what: String, _ range: ClosedRange<Int>) throws(Problem) -> Int {
            guard let value = node.scalar.flatMap({ Int($0.string) }), range.contains(value) else {
                throw problem(node, "`\(what)` must be a whole number from \(range.lowerBound) to \(range.upperBound)")
            }
            return value
        }

        func bool(_ node: Node, _ what: String) throws(Problem) -> Bool {
            switch node.scalar?.string {
            case "true": return true
            case "false": return false
            default: throw problem(node, "`\(what)` must be true or false")
            }
        }

        func numbers(_ node: Node, _ what: String, count: Int) throws(Problem) -> [Double] {
            guard let items = node.sequence, items.count == count else {
                throw problem(node, "`\(what)` must be a list of \(count) numbers (one per channel)")
            }
            var values: [Double] = []
            for item in items { values.append(try number(item, what)) }
            return values
        }

        func choice<T: RawRepresentable & Sendable>(_ node: Node, _ what: String) throws(Problem) -> T
        where T.RawValue == String {
            guard let text = node.scalar?.string, let value = T(rawValue: text) else {
                let allowed: String
                switch T.self {
                case is Layout.Type: allowed = "nchw or nhwc"
                case is Color.Type: allowed = "rgb, bgr or gray"
                default: allowed = "face or image"
                }
                throw problem(node, "`\(what)` must be \(allowed)")
            }
            return value
        }
    }
}
