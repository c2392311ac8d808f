import Foundation
import PadText

/// A boosted cascade of decision stumps over Haar or LBP features, read from the XML files that
/// OpenCV's `opencv_traincascade` writes (Debian `opencv-data`: `/usr/share/opencv4/haarcascades/`,
/// `/usr/share/opencv4/lbpcascades/`).
///
/// ```swift
/// let cascade = try CascadeClassifier(contentsOfFile: "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml")
/// let faces = CascadeDetector(cascade: cascade).detect(in: gray, minNeighbors: 3)
/// ```
/// Viola & Jones (CVPR 2001) for Haar features and the cascade; Lienhart & Maydt (ICIP 2002) for
/// the extended feature set; Liao et al. (ICB 2007) for multi-block LBP features. Only the new
/// XML format with depth-1 trees (stumps) and upright features is read; anything else is refused
/// with a clear error rather than evaluated wrongly.
public struct CascadeClassifier: Sendable {
    public enum FeatureType: String, Sendable { case haar = "HAAR", lbp = "LBP" }

    public struct Stump: Sendable {
        public var feature: Int32
        /// Haar: compare the normalised feature value with this threshold.
        public var threshold: Float
        public var left: Float
        public var right: Float
    }

    public struct Stage: Sendable {
        /// OpenCV subtracts 1e-5 (THRESHOLD_EPS) from the stored threshold when reading.
        public var threshold: Float
        public var stumps: [Stump]
    }

    /// One weighted rectangle of a Haar feature, in window coordinates.
    public struct WeightedRect: Sendable {
        public var x, y, width, height: Int32
        public var weight: Float
    }

    public let path: String
    public let featureType: FeatureType
    public let windowWidth: Int
    public let windowHeight: Int
    public let stages: [Stage]
    /// Haar features: up to three weighted rectangles each.
    public let haarFeatures: [[WeightedRect]]
    /// LBP features: the top-left 3x3 block grid (x, y, block width, block height).
    public let lbpFeatures: [(x: Int32, y: Int32, width: Int32, height: Int32)]
    /// LBP: per stump, 8 x 32-bit masks of the 256 codes that take the left leaf.
    public let lbpSubsets: [[Int32]]

    public init(contentsOfFile path: String) throws {
        if FileManager.default.fileExists(atPath: path), let problem = RegularFile.problem(path) { throw CascadeError.missing("\(path): \(problem)") }
        guard let data = FileManager.default.contents(atPath: path) else {
            throw CascadeError.missing("cascade file not found: \(path) (Debian: apt-get install opencv-data; or set --cascades)")
        }
        let root: XMLElement
        do { root = try XMLElement.parse(data) } catch let error as CascadeError {
            throw CascadeError.malformed("\(path): \(error)")
        }
        func fail(_ message: String) -> CascadeError { .malformed("\(path): \(message)") }
        guard let cascade = root.child("cascade") else {
            throw CascadeError.unsupported("\(path): no <cascade> element (old-format cascades are not supported; convert with opencv_traincascade)")
        }
        guard let typeText = cascade.child("featureType")?.trimmed, let type = FeatureType(rawValue: typeText) else {
            throw CascadeError.unsupported("\(path): feature type '\(cascade.child("featureType")?.trimmed ?? "?")' (HAAR and LBP are supported)")
        }
        guard let width = Int(cascade.child("width")?.trimmed ?? ""), let height = Int(cascade.child("height")?.trimmed ?? ""),
              width > 2, height > 2 else { throw fail("missing window width/height") }
        guard let stageNodes = cascade.child("stages")?.children, !stageNodes.isEmpty else { throw fail("no stages") }
        guard let featureNodes = cascade.child("features")?.children, !featureNodes.isEmpty else { throw fail("no features") }

        var haar: [[WeightedRect]] = []
        var lbp: [(x: Int32, y: Int32, width: Int32, height: Int32)] = []
        for (index, node) in featureNodes.enumerated() {
            if type == .haar {
                if let tilted = node.child("tilted"), tilted.trimmed != "0" {
                    throw CascadeError.unsupported("\(path): feature \(index) is tilted (45-degree features are not supported)")
                }
                guard let rects = node.child("rects")?.children, (1...3).contains(rects.count) else { throw fail("feature \(index) has no rects") }
                var feature: [WeightedRect] = []
                for rect in rects {
                    let n = rect.numbers
                    guard n.count == 5 else { throw fail("feature \(index): a rect needs x y w h weight") }
                    feature.append(WeightedRect(x: Int32(n[0]), y: Int32(n[1]), width: Int32(n[2]), height: Int32(n[3]), weight: Float(n[4])))
                }
                haar.append(feature)
            } else {
                let n = node.child("rect")?.numbers ?? []
                guard n.count == 4 else { throw fail("LBP feature \(index) needs x y w h") }
                lbp.append((Int32(n[0]), Int32(n[1]), Int32(n[2]), Int32(n[3])))
            }
        }
        let featureCount = type == .haar ? haar.count : lbp.count
        var stages: [Stage] = []
        var subsets: [[Int32]] = []
        for (s, stageNode) in stageNodes.enumerated() {
            guard let threshold = stageNode.child("stageThreshold")?.numbers.first,
                  let weak = stageNode.child("weakClassifiers")?.children else { throw fail("stage \(s) lacks a threshold or classifiers") }
            var stumps: [Stump] = []
            for (w, classifier) in weak.enumerated() {
                let nodes = classifier.child("internalNodes")?.numbers ?? []
                let leaves = classifier.child("leafValues")?.numbers ?? []
                let expected = type == .haar ? 4 : 11
                guard nodes.count == expected, leaves.count == 2 else {
                    throw CascadeError.unsupported("\(path): stage \(s) classifier \(w) is not a stump (\(nodes.count) node values, \(leaves.count) leaves); only depth-1 trees are supported")
                }
                let feature = Int(nodes[2])
                guard feature >= 0 && feature < featureCount else { throw fail("stage \(s) classifier \(w) names feature \(feature) of \(featureCount)") }
                if type == .haar {
                    stumps.append(Stump(feature: Int32(feature), threshold: Float(nodes[3]), left: Float(leaves[0]), right: Float(leaves[1])))
                } else {
                    stumps.append(Stump(feature: Int32(feature), threshold: 0, left: Float(leaves[0]), right: Float(leaves[1])))
                    subsets.append(nodes[3...].map { Int32(truncatingIfNeeded: Int64($0)) })
                }
            }
            // As OpenCV reads it: (float)threshold - THRESHOLD_EPS, computed in double, stored as float.
            stages.append(Stage(threshold: Float(Double(Float(threshold)) - 1e-5), stumps: stumps))
        }
        self.path = path
        self.featureType = type
        self.windowWidth = width
        self.windowHeight = height
        self.stages = stages
        self.haarFeatures = haar
        self.lbpFeatures = lbp
        self.lbpSubsets = subsets
    }
}
