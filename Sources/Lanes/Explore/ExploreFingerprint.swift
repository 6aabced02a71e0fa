import Reports

/// What tells one finding from another, and what a shrunk scenario or recording must still fail
/// with: the rule, the kind of step, and the message with its ids and numbers
/// masked (`accord explore`, `accord shrink`); words stay, so a different wrong reason is a
/// different finding.
enum ExploreFingerprint {
    static func of(_ failure: Failure, kind: String) -> String {
        "\(failure.ruleID) \(kind): \(masked(failure.message))"
    }

    /// A text with its ids and numbers masked.
    static func masked(_ text: String) -> String {
        var text = text
        text.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/, with: "<id>")
        text.replace(/[0-9]+/, with: "#")
        return text
    }
}
