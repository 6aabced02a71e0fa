extension RecordedExchange {
    /// Why this exchange's recorded answer is not the service's to replay, when it is not: the
    /// recording proxy answered it itself (`:accord-error`, e.g. a 502 while the upstream was down),
    /// or the answer depends on a credential a replay cannot reproduce (a 401 for an expired or
    /// foreign token: a replay mints a valid JWT for the recorded identity). A replay reports such
    /// an exchange skipped with this reason and sends nothing; world inference ignores it.
    public var unreplayableReason: String? {
        if let note = responseHeaders[":accord-error"]?.stringValue {
            return "the recording proxy answered this exchange itself (HTTP \(status): \(note)); it is not the service's answer"
        }
        if status == 401 {
            let code = response["code"]?.stringValue.map { " \($0)" } ?? ""
            return
                "the service refused the recorded credential (HTTP 401\(code)); a replay mints a valid JWT for the recorded identity, so the refusal cannot be reproduced"
        }
        return nil
    }
}
