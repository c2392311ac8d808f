/// Path text, without Foundation's `NSString` path methods: `deletingLastPathComponent` traps
/// on a one-character relative path (`--out g` crashed padbench in Foundation on Linux).
package enum Paths {
    /// The folder part of `path`: everything before its last `/` ("" for a bare name, "/" for a
    /// name in the root). Trailing slashes are the caller's to strip.
    package static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "" }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
