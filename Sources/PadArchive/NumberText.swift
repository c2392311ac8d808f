/// The bytes of ``CSVFormat/number(_:)`` written straight into memory: the number formatting of
/// files with tens of millions of values (`samples.csv`, `curves.csv`).
///
/// Most numbers in those files (scores read from text, rates k/n) have a shortest round-trip form
/// of at most 15 significant digits. For those the digits are found with one multiplication and
/// checked with one division, both exact or correctly rounded, instead of the standard library's
/// general shortest-digits search; every other value goes through the standard library. Either
/// way the bytes are exactly `"\(value)"`'s (tested against it on edge cases and millions of
/// random values).
///
/// Why the short path is exact: for 1e-8 <= |x| < 1e15, m = round(|x| * 10^p) with p = 14 - E
/// (E the decimal exponent of x) is the nearest 15-digit decimal; `Double(m) / 10^p` is one
/// correctly rounded operation (m < 2^53 and 10^p <= 10^22 are exact, Clinger 1990), so it equals
/// x exactly when the decimal m * 10^-p reads back as x. Two decimals of at most 15 significant
/// digits are at least 10^-15 apart relative to x, more than one ulp (2^-52), so at most one
/// reads back as x: the shortest round-trip digits are then m's digits without trailing zeros.
package enum NumberText {
    /// Longest text written: `-2.2250738585072014e-308` is 24 bytes.
    package static let maximumLength = 32

    /// Writes ``CSVFormat/number(_:)`` of `value` at the start of `out` and returns the number of
    /// bytes written; `out` must hold ``maximumLength`` bytes (checked: a shorter buffer stops the
    /// program instead of writing past its end).
    @inlinable
    package static func write(_ value: Double, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        precondition(out.count >= maximumLength, "NumberText needs \(maximumLength) bytes, got \(out.count)")
        return write(value, to: out.baseAddress!)
    }

    /// The decimal digits of `value` at the start of `out` (``maximumLength`` bytes, checked).
    @inlinable
    package static func writeInteger(_ value: Int64, into out: UnsafeMutableBufferPointer<UInt8>) -> Int {
        precondition(out.count >= maximumLength, "NumberText needs \(maximumLength) bytes, got \(out.count)")
        return writeInteger(value, to: out.baseAddress!)
    }

    /// ``write(_:into:)`` at a pointer with room for ``maximumLength`` bytes (unchecked: the
    /// bounded entry points above check the room once).
    @inlinable
    static func write(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
        if value.isNaN { return 0 }
        if value.isInfinite {
            var n = 0
            if value < 0 { out[0] = UInt8(ascii: "-"); n = 1 }
            out[n] = UInt8(ascii: "i"); out[n + 1] = UInt8(ascii: "n"); out[n + 2] = UInt8(ascii: "f")
            return n + 3
        }
        if value == value.rounded(.towardZero), abs(value) < 1e15 { return writeInteger(Int64(value), to: out) }
        if let n = writeShort(value, to: out) { return n }
        return writeDescription(value, to: out)
    }

    /// The decimal digits of `value` (what `String(value)` gives), unchecked as ``write(_:to:)``.
    @inlinable
    static func writeInteger(_ value: Int64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var n = 0
        if value < 0 { out[0] = UInt8(ascii: "-"); n = 1 }
        return n + writeDigits(value.magnitude, to: out + n)
    }

    /// The digits of `magnitude`, most significant first, two at a time from a table (a
    /// division per digit was a third of the formatting time).
    @inlinable
    static func writeDigits(_ magnitude: UInt64, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var length = 1, probe = magnitude
        while probe >= 100 { probe /= 100; length += 2 }
        if probe >= 10 { length += 1 }
        return writeDigits(magnitude, count: length, to: out)
    }

    /// The same when the number of digits is known.
    @inlinable
    static func writeDigits(_ magnitude: UInt64, count length: Int, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var rest = magnitude, k = length
        while k >= 2 {
            let pair = Int(rest % 100) * 2
            rest /= 100
            out[k - 1] = digitPairs[pair + 1]
            out[k - 2] = digitPairs[pair]
            k -= 2
        }
        if k == 1 { out[0] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: rest) }
        return length
    }

    /// "00", "01", ... "99" back to back.
    @usableFromInline
    static let digitPairs: [UInt8] = (0..<100).flatMap {
        [UInt8(ascii: "0") + UInt8($0 / 10), UInt8(ascii: "0") + UInt8($0 % 10)]
    }

    /// Exact powers of ten 10^0 ... 10^22 (every one is a Double exactly).
    @usableFromInline
    static let powers: [Double] = (0...22).map { k in (0..<k).reduce(1.0) { a, _ in a * 10 } }

    /// The short path (see the type's comment), or nil when the shortest form of `value` has more
    /// than 15 significant digits or |value| is outside [1e-8, 1e15).
    @usableFromInline
    static func writeShort(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int? {
        let a = abs(value)
        guard a >= 1e-8, a < 1e15 else { return nil }
        // floor(log10 |x|) is E or E - 1 with this estimate from the binary exponent.
        var e = (Int(a.exponent) * 78913) >> 18
        guard e >= -8 else { return nil }
        var scaled = a * powers[14 - e]
        if scaled >= 1e15 - 0.5 {
            e += 1
            guard e <= 14 else { return nil }
            scaled = a * powers[14 - e]
        }
        guard scaled >= 1e14, scaled < 1e15 - 0.5 else { return nil }
        // Round half up by adding 0.5 (exact below 2^52) and truncating: `rounded()` is a call
        // into libm. A wrong neighbour could only fail the check below.
        var m = UInt64(scaled + 0.5)
        guard Double(m) / powers[14 - e] == a else { return nil }
        var digitCount = 15
        while m % 10 == 0 { m /= 10; digitCount -= 1 }
        var n = 0
        if value < 0 { out[0] = UInt8(ascii: "-"); n = 1 }
        return n + layOut(m, digitCount: digitCount, exponent: e, to: out + n)
    }

    /// `digits` (count `digitCount`, first one at 10^exponent) as Swift prints a Double: plain
    /// decimal from 10^-4 up (`0.00012`, `1234.5`), else `d.ddde-05`.
    @usableFromInline
    static func layOut(_ digits: UInt64, digitCount: Int, exponent e: Int, to out: UnsafeMutablePointer<UInt8>)
        -> Int
    {
        if e < -4 {
            out[0] = UInt8(ascii: "0") // placeholder for the first digit
            var n = 1
            if digitCount > 1 {
                n = 1 + writeDigits(digits, count: digitCount, to: out + 1)
                out[0] = out[1]
                out[1] = UInt8(ascii: ".")
            } else {
                _ = writeDigits(digits, count: 1, to: out)
            }
            out[n] = UInt8(ascii: "e"); out[n + 1] = UInt8(ascii: "-")
            let magnitude = -e
            out[n + 2] = UInt8(ascii: "0") + UInt8(magnitude / 10)
            out[n + 3] = UInt8(ascii: "0") + UInt8(magnitude % 10)
            return n + 4
        }
        if e < 0 {
            out[0] = UInt8(ascii: "0"); out[1] = UInt8(ascii: ".")
            var n = 2
            for _ in 0..<(-e - 1) { out[n] = UInt8(ascii: "0"); n += 1 }
            return n + writeDigits(digits, count: digitCount, to: out + n)
        }
        // A non-integer has more digits than its integer part.
        let written = writeDigits(digits, count: digitCount, to: out + 1)
        for k in 0...e { out[k] = out[k + 1] }
        out[e + 1] = UInt8(ascii: ".")
        return written + 1
    }

    /// The standard library's shortest round-trip text (`description`), with no String made:
    /// `write(to:)` hands its digits to `_writeASCII`.
    @usableFromInline
    static func writeDescription(_ value: Double, to out: UnsafeMutablePointer<UInt8>) -> Int {
        var stream = PointerAppender(out: out)
        value.write(to: &stream)
        return stream.count
    }

    struct PointerAppender: TextOutputStream {
        let out: UnsafeMutablePointer<UInt8>
        var count = 0

        init(out: UnsafeMutablePointer<UInt8>) { self.out = out }

        mutating func write(_ string: String) {
            for byte in string.utf8 where count < NumberText.maximumLength {
                out[count] = byte
                count += 1
            }
        }

        mutating func _writeASCII(_ buffer: UnsafeBufferPointer<UInt8>) {
            let n = min(buffer.count, NumberText.maximumLength - count)
            (out + count).update(from: buffer.baseAddress!, count: n)
            count += n
        }
    }
}
