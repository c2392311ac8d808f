import PadImage

/// A landmark in image pixels.
package struct LandmarkPoint: Sendable, Equatable {
    package var x: Double
    package var y: Double
    package init(x: Double, y: Double) {
        self.x = x
        self.y = y
    }
}

extension ShapePredictorModel {
    /// The model's landmarks for the face in `rectangle` of `plane`, in image pixels, unrounded
    /// (dlib rounds its `full_object_detection` parts with floor(x + 0.5); so do the tests).
    ///
    /// Example: `ShapePredictorTests.equalsDlibOnSampleFaces` in `Tests/PadEstimatorsTests/LandmarkTests.swift`.
    /// The cascade of Kazemi & Sullivan (CVPR 2014), computed in the order and precision dlib's
    /// `shape_predictor::operator()` uses, so the points equal dlib's:
    /// 1. the shape starts as the mean shape (unit-square coordinates);
    /// 2. per level: the similarity transform S (scale and rotation, least squares, Umeyama 1991)
    ///    taking the mean shape to the current shape, computed in double and cast to float; each
    ///    feature pixel i, anchored at landmark k with offset d in the mean shape, sits at
    ///    p = S d + current[k] (float), mapped into the image by x = left + p.x (right - left),
    ///    y = top + p.y (bottom - top) (double) and read at (floor(x + 0.5), floor(y + 0.5)) (0 outside
    ///    the image);
    /// 3. each tree of the level goes left at a split when value[idx1] - value[idx2] > threshold,
    ///    and its leaf vector is added to the shape (float, tree after tree);
    /// 4. the final shape is mapped into the image as in step 2.
    package func landmarks(in plane: GrayPlane, rectangle: DlibRectangle) -> [LandmarkPoint] {
        var shape = initialShape
        var values = [Float](repeating: 0, count: featuresPerLevel)
        let reference = MeanShapeStatistics(initialShape)
        let frame = ImageFrame(rectangle: rectangle, width: plane.width, height: plane.height)
        plane.pixels.withUnsafeBufferPointer { pixels in
            shape.withUnsafeMutableBufferPointer { current in
                values.withUnsafeMutableBufferPointer { values in
                    for level in 0..<levels {
                        let (a, b) = reference.similarity(to: current)
                        sampleFeatures(
                            level: level, scale: (a, b), current: current, frame: frame, pixels: pixels, into: values)
                        addForest(level: level, values: values, to: current)
                    }
                }
            }
        }
        return (0..<parts).map { i in
            LandmarkPoint(x: frame.imageX(shape[2 * i]), y: frame.imageY(shape[2 * i + 1]))
        }
    }

    /// Step 2: the grey value under every feature pixel of `level`, placed relative to the current
    /// shape by the similarity [[a, -b], [b, a]].
    private func sampleFeatures(
        level: Int, scale: (Float, Float), current: UnsafeMutableBufferPointer<Float>, frame: ImageFrame,
        pixels: UnsafeBufferPointer<UInt8>, into values: UnsafeMutableBufferPointer<Float>
    ) {
        let (a, b) = scale, minusB = -b
        anchors.withUnsafeBufferPointer { anchors in
            deltas.withUnsafeBufferPointer { deltas in
                let first = level * featuresPerLevel
                for i in 0..<featuresPerLevel {
                    let k = Int(anchors[first + i]), dx = deltas[2 * (first + i)], dy = deltas[2 * (first + i) + 1]
                    // Two float products summed, then the anchor added: dlib's matrix<float,2,2> times
                    // vector<float,2>, plus location(current_shape, k).
                    let px = (a * dx + minusB * dy) + current[2 * k]
                    let py = (b * dx + a * dy) + current[2 * k + 1]
                    values[i] = frame.pixel(px, py, in: pixels)
                }
            }
        }
    }

    /// Step 3: every tree of `level` walked on the feature values, its leaf added to the shape.
    private func addForest(
        level: Int, values: UnsafeMutableBufferPointer<Float>, to current: UnsafeMutableBufferPointer<Float>
    ) {
        let length = 2 * parts, splits = splitsPerTree, leafStride = leavesPerTree * length
        splitFirst.withUnsafeBufferPointer { first in
            splitSecond.withUnsafeBufferPointer { second in
                splitThreshold.withUnsafeBufferPointer { threshold in
                    leafValues.withUnsafeBufferPointer { leaves in
                        for tree in (level * treesPerLevel)..<((level + 1) * treesPerLevel) {
                            let base = tree * splits
                            var node = 0
                            while node < splits {
                                let split = base + node
                                node =
                                    values[Int(first[split])] - values[Int(second[split])] > threshold[split]
                                    ? 2 * node + 1 : 2 * node + 2
                            }
                            let leaf = leaves.baseAddress! + tree * leafStride + (node - splits) * length
                            for j in 0..<length { current[j] += leaf[j] }
                        }
                    }
                }
            }
        }
    }
}

/// The mean shape's centre and spread, fixed per model, for the per-level similarity fit.
struct MeanShapeStatistics {
    let shape: [Float]
    let meanX: Double, meanY: Double
    /// Mean squared distance of the mean shape's points from their centre.
    let spread: Double

    init(_ shape: [Float]) {
        self.shape = shape
        let n = shape.count / 2
        var sx = 0.0, sy = 0.0
        for i in 0..<n {
            sx += Double(shape[2 * i])
            sy += Double(shape[2 * i + 1])
        }
        meanX = sx / Double(n)
        meanY = sy / Double(n)
        var s = 0.0
        for i in 0..<n {
            let dx = Double(shape[2 * i]) - meanX, dy = Double(shape[2 * i + 1]) - meanY
            s += dx * dx + dy * dy
        }
        spread = s / Double(n)
    }

    /// The least-squares similarity c R taking the mean shape to `current`, as (a, b) with
    /// c R = [[a, -b], [b, a]]: with centred points u (mean shape) and v (current),
    /// a = sum(u . v) / sum|u|^2 and b = sum(u x v) / sum|u|^2 (Umeyama 1991, eqs. 34-43, in 2D;
    /// the same optimum dlib's `find_similarity_transform` reaches by SVD). Identity for one
    /// landmark or a mean shape of one point, as dlib.
    func similarity(to current: UnsafeMutableBufferPointer<Float>) -> (Float, Float) {
        let n = shape.count / 2
        guard n > 1, spread != 0 else { return (1, 0) }
        var cx = 0.0, cy = 0.0
        for i in 0..<n {
            cx += Double(current[2 * i])
            cy += Double(current[2 * i + 1])
        }
        cx /= Double(n)
        cy /= Double(n)
        var dot = 0.0, cross = 0.0
        for i in 0..<n {
            let ux = Double(shape[2 * i]) - meanX, uy = Double(shape[2 * i + 1]) - meanY
            let vx = Double(current[2 * i]) - cx, vy = Double(current[2 * i + 1]) - cy
            dot += vx * ux + vy * uy
            cross += vy * ux - vx * uy
        }
        return (Float(dot / Double(n) / spread), Float(cross / Double(n) / spread))
    }
}

/// The face rectangle's unit square in the image, and the image's pixels by rounded position.
struct ImageFrame {
    let left: Double, top: Double, width: Double, height: Double
    let columns: Int, rows: Int

    init(rectangle: DlibRectangle, width imageWidth: Int, height imageHeight: Int) {
        left = Double(rectangle.left)
        top = Double(rectangle.top)
        width = Double(rectangle.right - rectangle.left)
        height = Double(rectangle.bottom - rectangle.top)
        columns = imageWidth
        rows = imageHeight
    }

    @inline(__always) func imageX(_ u: Float) -> Double { width * Double(u) + left }
    @inline(__always) func imageY(_ v: Float) -> Double { height * Double(v) + top }

    /// The grey value at the unit-square point (u, v), 0 outside the image.
    @inline(__always) func pixel(_ u: Float, _ v: Float, in pixels: UnsafeBufferPointer<UInt8>) -> Float {
        let x = (imageX(u) + 0.5).rounded(.down), y = (imageY(v) + 0.5).rounded(.down)
        guard x >= 0, y >= 0, x < Double(columns), y < Double(rows) else { return 0 }
        return Float(pixels[Int(y) * columns + Int(x)])
    }
}
