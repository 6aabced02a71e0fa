import JSON

/// One delivered row: the latest state of a row, visible to the caller.
public struct RowChange: Sendable, Hashable {
    /// The table.
    public var table: String
    /// The row key text.
    public var pk: String
    /// The change's global sequence number.
    public var seq: SequenceNumber
    /// The row's columns.
    public var row: JSONObject
}
