/// Errors of the archive layer; each names the file (and line, for CSV) it is about.
public enum ArchiveError: Error, Sendable, Equatable, CustomStringConvertible {
    case io(path: String, message: String)
    case zstd(path: String, message: String)
    case tar(path: String, message: String)
    case csv(path: String, line: Int, message: String)
    case missingEntry(path: String, entry: String)
    /// A size limit (``ArchiveLimits``) refused the archive or one of its members.
    case limit(path: String, message: String)

    public var description: String {
        switch self {
        case let .io(path, message): return "\(path): \(message)"
        case let .zstd(path, message): return "\(path): \(message)"
        case let .tar(path, message): return "\(path): \(message)"
        case let .csv(path, line, message): return "\(path):\(line): \(message)"
        case let .missingEntry(path, entry): return "\(path): no entry named \(entry)"
        case let .limit(path, message): return "\(path): \(message)"
        }
    }
}
