/// The PostgREST error codes a client must treat as permanent (they count toward the dead-letter
/// budget) rather than retryable (PROTOCOL-NOTES §1).
public enum PermanentCodes {
    /// Whether an error code is permanent: SQLSTATE classes 22, 23 and 42 except 42501, `P0001`,
    /// `0A000`, and the policy codes `KZP01`, `KZP02` and `KZL01`.
    /// A 5xx answer is always retryable.
    /// - Parameters:
    ///   - code: the `code` of a PostgREST error body, or nil when there is none.
    ///   - status: the HTTP status of the answer.
    /// - Returns: true for a permanent failure; false for a retryable one (and for no code).
    public static func isPermanent(_ code: String?, status: Int) -> Bool {
        guard let code, status < 500 else { return false }
        if ["P0001", "0A000", "KZP01", "KZP02", "KZL01"].contains(code) { return true }
        if code == "42501" { return false }
        return code.count == 5 && (code.hasPrefix("22") || code.hasPrefix("23") || code.hasPrefix("42"))
    }
}
