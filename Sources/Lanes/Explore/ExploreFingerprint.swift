import Reports

/// What tells one finding from another, and what a shrunk scenario or recording must still fail
/// with: the rule, the kind of step, and the message with its ids and numbers
/// masked (`accord explore`, `accord shrink`); words stay, so a different wrong reason is a
/// different finding.
enum ExploreFingerprint {
    static func of(_ failure: Failure, kind: String) -> String {
        var text = failure.message
        text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/, with: "<id>")
        text.replace(/[0-9]+/, with: "#")
        return "\(failure.ruleID) \(kind): \(text)"
    }
}
