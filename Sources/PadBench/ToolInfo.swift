import PadRuns

/// The tool's name and version, recorded in every manifest and report.
package enum ToolInfo {
    package static let name = "padbench"
    package static let version = ToolVersion.current
}
