import Foundation
import PadVocabulary

extension SplitMix64 {
    /// Standard normal by Box-Muller: sqrt(-2 ln u1) cos(2 pi u2) for u1, u2 uniform in (0, 1).
    package mutating func gaussian() -> Double {
        let u1 = max(uniform(0, 1), 1e-300), u2 = uniform(0, 1)
        return (-2 * log(u1)).squareRoot() * cos(2 * Double.pi * u2)
    }
}
