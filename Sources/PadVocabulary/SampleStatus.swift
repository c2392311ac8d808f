/// How processing one sample ended. A failed sample stays in every output with its status.
package enum SampleStatus: Sendable, Equatable {
    case ok
    /// `code` says why (docs/run-files.md, "Failure codes"); `message` says what happened, for people.
    case failed(code: FailureCode, message: String)

    /// Why the sample failed, nil when it did not.
    package var code: FailureCode? {
        if case .failed(let code, _) = self { return code }
        return nil
    }
    package var message: String {
        if case .failed(_, let message) = self { return message }
        return ""
    }
    package var isOK: Bool { self == .ok }

    /// The `status` field of `samples.csv` and `decisions.csv`: `ok`, or the failure code.
    package var field: String { code?.rawValue ?? "ok" }

    /// The status a `status` field and its `error` message stand for; nil when `field` is neither
    /// `ok` nor a ``FailureCode`` (the reader names the file and line).
    package init?(field: String, message: String) {
        if field == "ok" {
            self = .ok
        } else if let code = FailureCode(rawValue: field) {
            self = .failed(code: code, message: message)
        } else {
            return nil
        }
    }
}
