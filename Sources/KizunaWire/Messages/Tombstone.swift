/// One delivered tombstone: a row hard-deleted at `seq`.
public struct Tombstone: Sendable, Hashable {
    /// The table.
    public var table: String
    /// The row key text.
    public var pk: String
    /// The delete's global sequence number.
    public var seq: SequenceNumber
    /// When the row was deleted (logical timestamp in the corpus).
    public var deletedAt: String
}
