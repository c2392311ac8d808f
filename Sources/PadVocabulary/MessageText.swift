/// Text of input shown in a message. Here, below every module, because the vocabulary's own
/// checks (``OutputDescriptor/nameProblem(_:)``) quote what they refuse; PadText's
/// `TextBytes.quote` is this function.
package enum MessageText {
    /// At most `limit` characters (Unicode scalars) of `text` for a message, with an ellipsis
    /// when cut; NUL, control characters (C0, DEL, C1) and line breaks are written `\u{0}`,
    /// `\u{a}`, ... so one message stays one line and a terminal is never driven by input.
    /// Reads at most `limit` + 1 scalars of `text` (a 50 MB key costs nothing to quote).
    package static func quote(_ text: String, limit: Int = 200) -> String {
        var out = ""
        var taken = 0
        for scalar in text.unicodeScalars {
            if taken == limit { return out + "..." }
            taken += 1
            let v = scalar.value
            if v < 0x20 || (0x7F...0x9F).contains(v) {
                out += "\\u{\(String(v, radix: 16))}"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
