import JSON

/// A conflict-journal entry riding a winning pull (D-conflict-journal-visibility).
public struct ConflictEntry: Sendable, Hashable {
    /// The overwritten column.
    public var columnName: String
    /// "arrival" or "hlc".
    public var conflictMode: String
    /// The value that lost.
    public var loserValue: JSONValue
    /// The row key.
    public var pk: String
    /// The table.
    public var table: String
    /// The winning mutation.
    public var winnerMutationID: String
    /// The winning write's seq.
    public var winnerSeq: SequenceNumber
}
