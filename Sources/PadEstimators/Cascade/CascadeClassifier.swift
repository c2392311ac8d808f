import Foundation
import PadText
import PadVocabulary

/// A boosted cascade of decision stumps over Haar or LBP features, read from the XML files that
/// OpenCV's `opencv_traincascade` writes (Debian `opencv-data`: `/usr/share/opencv4/haarcascades/`,
/// `/usr/share/opencv4/lbpcascades/`).
///
/// ```swift
/// let cascade = try CascadeClassifier(
///     contentsOfFile: "/usr/share/opencv4/haarcascades/haarcascade_frontalface_default.xml")
/// let faces = CascadeDetector(cascade: cascade).detect(in: gray, minNeighbors: 3)
/// ```
/// Viola & Jones (CVPR 2001) for Haar features and the cascade; Lienhart & Maydt (ICIP 2002) for
/// the extended feature set; Liao et al. (ICB 2007) for multi-block LBP features. Only the new
/// XML format with depth-1 trees (stumps) and upright features is read; anything else is refused
/// with a clear error rather than evaluated wrongly.
package struct CascadeClassifier: Sendable {
    package enum FeatureType: String, Sendable {
        case haar = "HAAR"
        case lbp = "LBP"
    }

    package struct Stump: Sendable {
        package var feature: Int32
        /// Haar: compare the normalised feature value with this threshold.
        package var threshold: Float
        package var left: Float
        package var right: Float
    }

    package struct Stage: Sendable {
        /// OpenCV subtracts 1e-5 (THRESHOLD_EPS) from the stored threshold when reading.
        package var threshold: Float
        package var stumps: [Stump]
    }

    /// One weighted rectangle of a Haar feature, in window coordinates.
    package struct WeightedRect: Sendable {
        package var x, y, width, height: Int32
        package var weight: Float
    }

    package let path: String
    /// FNV-1a 64 of the file's bytes (16 hex digits): what the cascade *is*, recorded beside its
    /// path in the manifest, so `merge` compares shards' cascades by content, not by where they lay.
    package let contentHash: String
    package let featureType: FeatureType
    package let windowWidth: Int
    package let windowHeight: Int
    package let stages: [Stage]
    /// Haar features: up to three weighted rectangles each.
    package let haarFeatures: [[WeightedRect]]
    /// LBP features: the top-left 3x3 block grid (x, y, block width, block height).
    package let lbpFeatures: [(x: Int32, y: Int32, width: Int32, height: Int32)]
    /// LBP: per stump, 8 x 32-bit masks of the 256 codes that take the left leaf.
    package let lbpSubsets: [[Int32]]

    /// Largest cascade file read (OpenCV's largest, haarcascade_frontalface_alt_tree.xml, is 2.6 MB).
    static let maximumFileBytes = 64 << 20

    /// Largest detection window accepted (OpenCV's cascades use 20 to 24 pixels).
    static let maximumWindow = 1024

    /// Integral x y w h (w, h > 0) whose `scale` x `scale` grid of w x h blocks lies inside the
    /// window; nil otherwise, so the detector can never read outside its integral image.
    static func rectangle(_ n: [Double], scale: Int, width: Int, height: Int) -> (
        x: Int32, y: Int32, width: Int32, height: Int32
    )? {
        let values = n.prefix(4)
        guard values.count == 4,
            values.allSatisfy({ $0.isFinite && $0 == $0.rounded() && abs($0) <= Double(maximumWindow) })
        else { return nil }
        let x = Int(n[0]), y = Int(n[1]), w = Int(n[2]), h = Int(n[3])
        guard x >= 0, y >= 0, w > 0, h > 0, x + scale * w <= width, y + scale * h <= height else { return nil }
        return (Int32(x), Int32(y), Int32(w), Int32(h))
    }

    package init(contentsOfFile path: String) throws {
        let (cascade, contentHash) = try Self.cascadeElement(path)
        func fail(_ message: String) -> CascadeError { .malformed("\(path): \(message)") }
        guard let typeText = cascade.child("featureType")?.trimmed, let type = FeatureType(rawValue: typeText) else {
            throw CascadeError.unsupported(
                "\(path): feature type '\(TextBytes.quote(cascade.child("featureType")?.trimmed ?? "?"))' (HAAR and LBP are supported)"
            )
        }
        guard let width = Int(cascade.child("width")?.trimmed ?? ""),
            let height = Int(cascade.child("height")?.trimmed ?? ""),
            (3...Self.maximumWindow).contains(width), (3...Self.maximumWindow).contains(height)
        else {
            throw fail("missing window width/height (3 to \(Self.maximumWindow) pixels)")
        }
        guard let stageNodes = cascade.child("stages")?.children, !stageNodes.isEmpty else { throw fail("no stages") }
        guard let featureNodes = cascade.child("features")?.children, !featureNodes.isEmpty else {
            throw fail("no features")
        }

        var haar: [[WeightedRect]] = []
        var lbp: [(x: Int32, y: Int32, width: Int32, height: Int32)] = []
        for (index, node) in featureNodes.enumerated() {
            if type == .haar {
                haar.append(try Self.haarFeature(node, index: index, width: width, height: height, path: path))
            } else {
                let n = node.child("rect")?.numbers ?? []
                guard n.count == 4 else { throw fail("LBP feature \(index) needs x y w h") }
                // An LBP feature reads a 3 x 3 grid of w x h blocks.
                guard let r = Self.rectangle(n, scale: 3, width: width, height: height) else {
                    throw fail(
                        "LBP feature \(index): 3x3 blocks of \(n.map { "\($0)" }.joined(separator: " ")) "
                            + "are not inside the \(width)x\(height) window"
                    )
                }
                lbp.append(r)
            }
        }
        var stages: [Stage] = []
        var subsets: [[Int32]] = []
        for (s, stageNode) in stageNodes.enumerated() {
            let (stage, stageSubsets) = try Self.stage(
                stageNode, index: s, type: type, featureCount: type == .haar ? haar.count : lbp.count, path: path)
            stages.append(stage)
            subsets += stageSubsets
        }
        self.path = path
        self.contentHash = contentHash
        self.featureType = type
        self.windowWidth = width
        self.windowHeight = height
        self.stages = stages
        self.haarFeatures = haar
        self.lbpFeatures = lbp
        self.lbpSubsets = subsets
    }

    /// The `<cascade>` element of a readable, well-formed cascade file, and the file's FNV-1a 64.
    static func cascadeElement(_ path: String) throws -> (XMLElement, String) {
        let data: Data
        do { data = Data(try RegularFile.read(path, limit: maximumFileBytes)) } catch {
            // Only a file that is not there is "not found": a full descriptor table (EMFILE), a
            // directory or a file over the limit says so instead.
            guard error.code != ENOENT else {
                throw CascadeError.missing(
                    "cascade file not found: \(path) (Debian: apt-get install opencv-data; or set --cascades)")
            }
            throw CascadeError.missing(error.description)
        }
        let root: XMLElement
        do { root = try XMLElement.parse(data) } catch let error as CascadeError {
            throw CascadeError.malformed("\(path): \(error)")
        }
        guard let cascade = root.child("cascade") else {
            throw CascadeError.unsupported(
                "\(path): no <cascade> element (old-format cascades are not supported; "
                    + "convert with opencv_traincascade)"
            )
        }
        return (cascade, FNV1a.hex(data.withUnsafeBytes { FNV1a.hash($0.bindMemory(to: UInt8.self)) }))
    }

    /// One upright Haar feature: one to three weighted rectangles inside the window.
    static func haarFeature(_ node: XMLElement, index: Int, width: Int, height: Int, path: String) throws
        -> [WeightedRect]
    {
        func fail(_ message: String) -> CascadeError { .malformed("\(path): \(message)") }
        if let tilted = node.child("tilted"), tilted.trimmed != "0" {
            throw CascadeError.unsupported("\(path): feature \(index) is tilted (45-degree features are not supported)")
        }
        guard let rects = node.child("rects")?.children, (1...3).contains(rects.count) else {
            throw fail("feature \(index) has no rects")
        }
        var feature: [WeightedRect] = []
        for rect in rects {
            let n = rect.numbers
            guard n.count == 5 else { throw fail("feature \(index): a rect needs x y w h weight") }
            guard let r = Self.rectangle(n, scale: 1, width: width, height: height), n[4].isFinite else {
                throw fail(
                    "feature \(index): rect \(n.prefix(4).map { "\($0)" }.joined(separator: " ")) "
                        + "is not inside the \(width)x\(height) window (or its weight is not finite)"
                )
            }
            feature.append(WeightedRect(x: r.x, y: r.y, width: r.width, height: r.height, weight: Float(n[4])))
        }
        return feature
    }

    /// One stage: its stumps (checked: depth 1, a feature that exists, finite values) and, for
    /// LBP, each stump's eight 32-bit subset words.
    static func stage(_ node: XMLElement, index s: Int, type: FeatureType, featureCount: Int, path: String) throws -> (
        Stage, [[Int32]]
    ) {
        func fail(_ message: String) -> CascadeError { .malformed("\(path): \(message)") }
        guard let threshold = node.child("stageThreshold")?.numbers.first, threshold.isFinite,
            let weak = node.child("weakClassifiers")?.children
        else { throw fail("stage \(s) lacks a threshold or classifiers") }
        var stumps: [Stump] = []
        var subsets: [[Int32]] = []
        for (w, classifier) in weak.enumerated() {
            let nodes = classifier.child("internalNodes")?.numbers ?? []
            let leaves = classifier.child("leafValues")?.numbers ?? []
            let expected = type == .haar ? 4 : 11
            guard nodes.count == expected, leaves.count == 2 else {
                throw CascadeError.unsupported(
                    "\(path): stage \(s) classifier \(w) is not a stump (\(nodes.count) node values, "
                        + "\(leaves.count) leaves); only depth-1 trees are supported"
                )
            }
            guard nodes[2].isFinite, nodes[2] == nodes[2].rounded(), nodes[2] >= 0, nodes[2] < Double(featureCount)
            else {
                throw fail("stage \(s) classifier \(w) names feature \(nodes[2]) of \(featureCount)")
            }
            // Child indices of a stump: 0 and -1 / leaf indices 0 and -1 as OpenCV writes them.
            guard nodes[0] == 0, nodes[1] == 0 || nodes[1] == -1, (nodes + leaves).allSatisfy(\.isFinite) else {
                throw fail("stage \(s) classifier \(w) has bad node indices or non-finite values")
            }
            let feature = Int32(nodes[2])
            if type == .haar {
                stumps.append(
                    Stump(feature: feature, threshold: Float(nodes[3]), left: Float(leaves[0]), right: Float(leaves[1]))
                )
            } else {
                stumps.append(Stump(feature: feature, threshold: 0, left: Float(leaves[0]), right: Float(leaves[1])))
                guard nodes[3...].allSatisfy({ abs($0) <= Double(UInt32.max) }) else {
                    throw fail("stage \(s) classifier \(w): LBP subset values beyond 32 bits")
                }
                subsets.append(nodes[3...].map { Int32(truncatingIfNeeded: Int64($0)) })
            }
        }
        // As OpenCV reads it: (float)threshold - THRESHOLD_EPS, computed in double, stored as float.
        return (Stage(threshold: Float(Double(Float(threshold)) - 1e-5), stumps: stumps), subsets)
    }
}
