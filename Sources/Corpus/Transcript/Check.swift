import JSON

/// A client-state check (assert steps and postconditions).
public enum Check: Sendable, Hashable {
    /// The locally readable row; nil means absent.
    case localRow(table: String, pk: String, row: JSONObject?)
    /// The durably persisted cursor token.
    case cursor(String)
    /// The number of pending outbox entries.
    case outboxDepth(Int)
    /// An engine event was raised.
    case event(String)
    /// No fractured mid-hydration state was ever observable.
    case noIntermediateCommit

    /// The closed set of events a transcript may assert.
    public static let events: Set<String> = [
        "MUTATION_REJECTED", "CHECKPOINT_EXPIRED", "RESET_REQUIRED", "DEAD_LETTER", "QUEUE_DEPTH", "BATCH_ABORTED",
        "COLUMN_OVERWRITTEN",
    ]

    /// A short description, e.g. "cursor = 4".
    public var summary: String {
        switch self {
        case .localRow(let table, let pk, let row): "local-row \(table)/\(pk) \(row == nil ? "absent" : "present")"
        case .cursor(let value): "cursor = \(value)"
        case .outboxDepth(let depth): "outbox-depth = \(depth)"
        case .event(let event): "event \(event)"
        case .noIntermediateCommit: "no-intermediate-commit"
        }
    }
}
