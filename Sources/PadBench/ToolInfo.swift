import PadReport

/// The tool's name and version, recorded in every manifest and report.
public enum ToolInfo {
    public static let name = "padbench"
    public static let version = ToolVersion.current
}
