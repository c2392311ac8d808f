import Foundation

/// A number from `JSONSerialization` output, shared by the vendor export readers so that all of
/// them agree on what counts as a number (external answers are decoded by type: `JSONValue`).
package enum JSONNumber {
    /// The value as a Double when it is a JSON number; nil for anything else, including JSON
    /// `true`/`false`, which Foundation also delivers as `NSNumber` (its boolean subclass).
    package static func value(_ value: Any?) -> Double? {
        guard let value, type(of: value) != Bool.self else { return nil }
        if let n = value as? NSNumber, !String(describing: type(of: n)).contains("Boolean") { return n.doubleValue }
        return nil
    }
}
