import PadText

/// Dataset manifests through the shared RFC 4180 reader (PadText): BOM, CRLF and quoting as
/// everywhere else; `#` comment lines are skipped.
enum CSVLines {
    static func parse(_ bytes: [UInt8], path: String) throws(DatasetProblem) -> [(line: Int, fields: [String])] {
        do {
            return try CSVReader.parse(bytes, comments: true).map { ($0.line, $0.fields) }
        } catch {
            throw DatasetProblem(.badLine, file: path, line: error.line, error.message)
        }
    }
}
