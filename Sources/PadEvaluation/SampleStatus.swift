/// How processing one sample ended. A failed sample stays in every output with its status.
public enum SampleStatus: Sendable, Equatable {
    case ok
    /// `code` is one of the stable codes of the README ("What a run writes") (`decode_error`, `unsupported_format`,
    /// `too_large`, `missing_file`, `estimator_error`, `timeout`).
    case failed(code: String, message: String)

    public var code: String {
        if case .failed(let code, _) = self { return code }
        return "ok"
    }
    public var message: String {
        if case .failed(_, let message) = self { return message }
        return ""
    }
    public var isOK: Bool { self == .ok }
}
