import PadImage
import PadVocabulary

/// The plausibility rule for face boxes a dataset ships (manifest `x,y,w,h`, CelebA-Spoof
/// `_BB.txt`): finite numbers, width and height above 0, and every coordinate within ±1,000,000
/// pixels (decoded images are limited to 100 megapixels by default, so larger numbers can only be
/// damage; a 1e300 box would overflow the Double-to-Int conversions of a crop).
package enum FaceBoxCheck {
    package static let coordinateLimit = 1_000_000.0

    /// Why `box` cannot be a face box, or nil when it can.
    package static func problem(_ box: Box) -> String? {
        let values = [box.x, box.y, box.width, box.height]
        guard values.allSatisfy(\.isFinite) else { return "face box x,y,w,h must be finite numbers" }
        guard box.width > 0, box.height > 0 else { return "face box w and h must be > 0" }
        guard values.allSatisfy({ abs($0) <= coordinateLimit }), box.x + box.width <= coordinateLimit,
            box.y + box.height <= coordinateLimit
        else {
            return "face box x,y,w,h must lie within ±\(Int(coordinateLimit)) pixels"
        }
        return nil
    }
}
