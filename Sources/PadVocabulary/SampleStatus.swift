/// How processing one sample ended. A failed sample stays in every output with its status.
public enum SampleStatus: Sendable, Equatable {
    case ok
    /// `code` says why (README.md, "Failure codes"); `message` says what happened, for people.
    case failed(code: FailureCode, message: String)

    /// Why the sample failed, nil when it did not.
    public var code: FailureCode? {
        if case .failed(let code, _) = self { return code }
        return nil
    }
    public var message: String {
        if case .failed(_, let message) = self { return message }
        return ""
    }
    public var isOK: Bool { self == .ok }

    /// The `status` field of `samples.csv` and `decisions.csv`: `ok`, or the failure code.
    public var field: String { code?.rawValue ?? "ok" }

    /// The status a `status` field and its `error` message stand for; nil when `field` is neither
    /// `ok` nor a ``FailureCode`` (the reader names the file and line).
    public init?(field: String, message: String) {
        if field == "ok" {
            self = .ok
        } else if let code = FailureCode(rawValue: field) {
            self = .failed(code: code, message: message)
        } else {
            return nil
        }
    }
}
