/// dlib's `shape_predictor` (an ensemble of regression trees, Kazemi & Sullivan, "One Millisecond
/// Face Alignment with an Ensemble of Regression Trees", CVPR 2014) held in flat arrays: one
/// allocation per kind of value, indexed by (level, tree, node), so evaluating a level walks
/// memory in order instead of chasing nested vectors.
///
/// Example: `ShapePredictorTests.readsDebianModel` in `Tests/PadEstimatorsTests/LandmarkTests.swift`.
/// Built by ``ShapePredictorReader`` from dlib's serialised file; evaluated by
/// ``ShapePredictorModel/landmarks(in:rectangle:)`` (ShapePredictorEvaluator.swift).
/// Shapes are in the unit square of the face rectangle (dlib's `normalizing_tform`); a shape
/// vector holds x0, y0, x1, y1, ... as `Float`, as dlib's `matrix<float,0,1>` does.
package struct ShapePredictorModel: Sendable {
    /// Landmarks per shape (68 for iBUG 300-W, 5 for dlib's eye-corner and nose model).
    package let parts: Int
    /// The mean shape every prediction starts from, 2 x `parts` values.
    package let initialShape: [Float]
    /// Cascade levels; each has its own feature pixels and forest.
    package let levels: Int
    /// Trees in each level's forest (the same for every level, as dlib's trainer writes them).
    package let treesPerLevel: Int
    /// Split nodes per tree (2^depth - 1); a tree has `splitsPerTree + 1` leaves.
    package let splitsPerTree: Int
    /// Feature pixels sampled per level.
    package let featuresPerLevel: Int
    /// For split node n of tree t at level l, at `(l * treesPerLevel + t) * splitsPerTree + n`:
    /// the two feature-pixel indices compared and the threshold on their difference.
    package let splitFirst: [Int32]
    package let splitSecond: [Int32]
    package let splitThreshold: [Float]
    /// Leaf vectors (2 x `parts` each) of every tree, tree after tree, leaf after leaf.
    package let leafValues: [Float]
    /// For feature pixel i of level l, at `l * featuresPerLevel + i`: the landmark it is anchored
    /// to, and (at twice the index) its offset from that landmark in the mean shape.
    package let anchors: [Int32]
    package let deltas: [Float]

    package init(
        parts: Int, initialShape: [Float], levels: Int, treesPerLevel: Int, splitsPerTree: Int,
        featuresPerLevel: Int, splitFirst: [Int32], splitSecond: [Int32], splitThreshold: [Float],
        leafValues: [Float], anchors: [Int32], deltas: [Float]
    ) {
        precondition(initialShape.count == 2 * parts && parts > 0)
        let splits = levels * treesPerLevel * splitsPerTree
        precondition(splitFirst.count == splits && splitSecond.count == splits && splitThreshold.count == splits)
        precondition(leafValues.count == levels * treesPerLevel * (splitsPerTree + 1) * 2 * parts)
        precondition(anchors.count == levels * featuresPerLevel && deltas.count == 2 * anchors.count)
        self.parts = parts
        self.initialShape = initialShape
        self.levels = levels
        self.treesPerLevel = treesPerLevel
        self.splitsPerTree = splitsPerTree
        self.featuresPerLevel = featuresPerLevel
        self.splitFirst = splitFirst
        self.splitSecond = splitSecond
        self.splitThreshold = splitThreshold
        self.leafValues = leafValues
        self.anchors = anchors
        self.deltas = deltas
    }

    /// Leaves per tree.
    package var leavesPerTree: Int { splitsPerTree + 1 }
}

/// A face rectangle as dlib states it: inclusive pixel corners (`right = left + width - 1`), the
/// box the model's unit square is stretched over (top-left corner to (0, 0), bottom-right corner
/// to (1, 1)).
package struct DlibRectangle: Sendable, Equatable, CustomStringConvertible {
    package var left: Int
    package var top: Int
    package var right: Int
    package var bottom: Int
    package init(left: Int, top: Int, right: Int, bottom: Int) {
        self.left = left
        self.top = top
        self.right = right
        self.bottom = bottom
    }
    package var description: String { "[(\(left), \(top)) (\(right), \(bottom))]" }
}

/// Why a model file was refused: the file, the byte offset and what was wrong there.
package struct ShapePredictorError: Error, Sendable, CustomStringConvertible {
    package var path: String
    package var offset: Int
    package var message: String
    package init(path: String, offset: Int, message: String) {
        self.path = path
        self.offset = offset
        self.message = message
    }
    package var description: String { "\(path): byte \(offset): \(message)" }
}
