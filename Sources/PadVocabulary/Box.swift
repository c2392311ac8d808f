/// An axis-aligned rectangle in pixel coordinates (origin top-left).
package struct Box: Sendable, Equatable, Hashable, Codable, CustomStringConvertible {
    package var x: Double
    package var y: Double
    package var width: Double
    package var height: Double

    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    package var area: Double { max(0, width) * max(0, height) }
    package var centerX: Double { x + width / 2 }
    package var centerY: Double { y + height / 2 }

    /// Intersection over union, 0 when the boxes do not overlap.
    package func iou(_ other: Box) -> Double {
        let ix = max(0, min(x + width, other.x + other.width) - max(x, other.x))
        let iy = max(0, min(y + height, other.y + other.height) - max(y, other.y))
        let inter = ix * iy
        let union = area + other.area - inter
        return union > 0 ? inter / union : 0
    }

    /// The box clipped to an image of the given size (may become empty).
    package func clipped(width w: Int, height h: Int) -> Box {
        let x0 = min(max(x, 0), Double(w)), y0 = min(max(y, 0), Double(h))
        let x1 = min(max(x + width, 0), Double(w)), y1 = min(max(y + height, 0), Double(h))
        return Box(x: x0, y: y0, width: x1 - x0, height: y1 - y0)
    }

    package var description: String { "(\(x), \(y), \(width)x\(height))" }
}
