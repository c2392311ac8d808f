/// Plain decimal text to the nearest double without `strtod`, for the common score spelling
/// (`[+-]digits[.digits][(e|E)[+-]digits]`, at most 19 digits, value = m * 10^e with m <= 2^53
/// and |e| <= 22). Both m and 10^|e| are then exact doubles, and one IEEE multiplication or
/// division rounds their product or quotient correctly: the result is the double strtod (and
/// Swift's `Double(String)`) gives (Clinger's fast path, W. D. Clinger, "How to read floating
/// point numbers accurately", PLDI 1990). Any other text returns nil and is left to strtod.
enum ExactDecimal {
    /// 10^0 ... 10^22, every one exactly representable.
    static let powersOfTen: [Double] = [
        1e0, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12, 1e13, 1e14, 1e15, 1e16, 1e17, 1e18,
        1e19, 1e20, 1e21, 1e22,
    ]

    /// The double of the `count` bytes at `text`, or nil when the text is not a plain decimal
    /// this path can round exactly.
    static func parse(_ text: UnsafePointer<UInt8>, count: Int) -> Double? {
        var i = 0
        var negative = false
        if i < count && (text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+")) {
            negative = text[i] == UInt8(ascii: "-")
            i += 1
        }
        var mantissa: UInt64 = 0, digits = 0, fractionDigits = 0
        while i < count, text[i] &- UInt8(ascii: "0") < 10 {
            mantissa = mantissa &* 10 &+ UInt64(text[i] &- UInt8(ascii: "0"))
            digits += 1
            i += 1
        }
        if i < count && text[i] == UInt8(ascii: ".") {
            i += 1
            while i < count, text[i] &- UInt8(ascii: "0") < 10 {
                mantissa = mantissa &* 10 &+ UInt64(text[i] &- UInt8(ascii: "0"))
                digits += 1
                fractionDigits += 1
                i += 1
            }
        }
        // 19 digits cannot overflow UInt64; more are left to strtod.
        guard digits > 0, digits <= 19, mantissa <= 1 << 53 else { return nil }
        var exponent = 0
        if i < count && (text[i] | 0x20) == UInt8(ascii: "e") {
            guard let (value, next) = Self.exponent(text, from: i + 1, count: count) else { return nil }
            exponent = value
            i = next
        }
        guard i == count else { return nil }
        let power = exponent - fractionDigits
        guard power >= -22 && power <= 22 else { return nil }
        var value = Double(mantissa)
        if power < 0 { value /= powersOfTen[-power] } else { value *= powersOfTen[power] }
        return negative ? -value : value
    }

    /// `[+-]digits` (one to four digits) after the `e`, and the offset past it.
    static func exponent(_ text: UnsafePointer<UInt8>, from start: Int, count: Int) -> (Int, Int)? {
        var i = start
        var negative = false
        if i < count && (text[i] == UInt8(ascii: "-") || text[i] == UInt8(ascii: "+")) {
            negative = text[i] == UInt8(ascii: "-")
            i += 1
        }
        var value = 0, digits = 0
        while i < count, text[i] &- UInt8(ascii: "0") < 10 {
            value = value * 10 + Int(text[i] &- UInt8(ascii: "0"))
            digits += 1
            i += 1
        }
        guard digits > 0 && digits <= 4 else { return nil }
        return (negative ? -value : value, i)
    }
}
