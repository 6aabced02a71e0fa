import JSON

/// A mutation's operation: the closed set insert | update | delete.
public enum MutationOp: String, Sendable, Hashable, CaseIterable {
    /// Creates a row.
    case insert
    /// Changes masked columns of a row.
    case update
    /// Hard-deletes a row, leaving a tombstone.
    case delete
}

/// Why the server refused a mutation: the closed six-literal union (D-rejection-reasons).
public enum RejectionReason: String, Sendable, Hashable, CaseIterable {
    /// A precondition did not match.
    case precondition = "PRECONDITION"
    /// The row is outside the caller's row-level policy (or absent).
    case rlsDenied = "RLS_DENIED"
    /// The caller may not write a masked column.
    case columnDenied = "COLUMN_DENIED"
    /// A class-22/23 error, P0001 or 428C9 while applying the row.
    case constraint = "CONSTRAINT"
    /// The row was deleted; the edit loses.
    case deleteWins = "DELETE_WINS"
    /// Every masked column lost the hlc-mode comparison.
    case superseded = "SUPERSEDED"
}

/// A pull or push signal: the closed set CHECKPOINT_EXPIRED | RESET_REQUIRED.
public enum SignalType: String, Sendable, Hashable, CaseIterable {
    /// The transfer's start predates retained tombstones: rehydrate from "0".
    case checkpointExpired = "CHECKPOINT_EXPIRED"
    /// The client's schema_version is below the server minimum: soft-block.
    case resetRequired = "RESET_REQUIRED"
}

/// A verdict kind: the closed set applied | rejected.
public enum VerdictKind: String, Sendable, Hashable, CaseIterable {
    /// The mutation took effect.
    case applied
    /// The mutation was refused and left no effect.
    case rejected
}

extension RawRepresentable where RawValue == String {
    /// Reads a member of a closed string set.
    /// - Parameters:
    ///   - value: the JSON value.
    ///   - pointer: where it sits.
    ///   - unknown: the error kind for a string outside the set.
    ///   - malformed: the error kind for a value that is not a string.
    ///   - what: the set's name for messages, e.g. "op".
    /// - Returns: the member.
    /// - Throws: `WireError` of kind `unknown` or `malformed`.
    public static func read(
        _ value: JSONValue, at pointer: JSONPointer, unknown: WireError.Kind, malformed: WireError.Kind, what: String
    ) throws(WireError) -> Self {
        guard case .string(let text) = value else {
            throw WireError(malformed, at: pointer, "expected \(what) string, found \(value.typeName)")
        }
        guard let parsed = Self(rawValue: text) else { throw WireError(unknown, at: pointer, "unknown \(what) \"\(text)\"") }
        return parsed
    }
}
