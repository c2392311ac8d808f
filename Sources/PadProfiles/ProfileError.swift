/// A profile that cannot be used, located by file, line and column.
public struct ProfileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var file: String
    public var line: Int
    public var column: Int
    public var message: String

    public init(file: String, line: Int, column: Int, _ message: String) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
    }

    public var description: String {
        if line <= 0 { return "\(file): \(message)" }
        return column > 0 ? "\(file):\(line):\(column): \(message)" : "\(file):\(line): \(message)"
    }
}
