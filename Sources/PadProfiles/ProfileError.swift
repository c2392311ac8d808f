/// A profile that cannot be used, located by file, line and column.
package struct ProfileError: Error, Sendable, Equatable, CustomStringConvertible {
    package var file: String
    package var line: Int
    package var column: Int
    package var message: String
    /// Errors found after this one in the same file. A parse-only load (bench, before the run
    /// knows its outputs) cannot count the unknown output names yet: `padbench profiles validate
    /// FILE` lists every error.
    package var moreErrors: Int

    package init(file: String, line: Int, column: Int, _ message: String, moreErrors: Int = 0) {
        self.file = file
        self.line = line
        self.column = column
        self.message = message
        self.moreErrors = moreErrors
    }

    /// `file:line:column: message`, and a pointer to the others when the file holds more.
    package var description: String {
        let place = line <= 0 ? file : column > 0 ? "\(file):\(line):\(column)" : "\(file):\(line)"
        let more = moreErrors == 0 ? "" : " (and more errors: padbench profiles validate \(file) lists every one)"
        return "\(place): \(message)\(more)"
    }
}
