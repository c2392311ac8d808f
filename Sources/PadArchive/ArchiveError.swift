/// Errors of the archive layer; each names the file (and line, for CSV) it is about.
package enum ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    case io(path: String, message: String)
    case zstd(path: String, message: String)
    case tar(path: String, message: String)
    case csv(path: String, line: Int, message: String)
    case missingEntry(path: String, entry: String)
    /// A size limit (``ArchiveLimits``) refused the archive or one of its members.
    case limit(path: String, message: String)

    package var description: String {
        switch self {
        case .io(let path, let message): return "\(path): \(message)"
        case .zstd(let path, let message): return "\(path): \(message)"
        case .tar(let path, let message): return "\(path): \(message)"
        case .csv(let path, let line, let message): return "\(path):\(line): \(message)"
        case .missingEntry(let path, let entry): return "\(path): no entry named \(entry)"
        case .limit(let path, let message): return "\(path): \(message)"
        }
    }
}
