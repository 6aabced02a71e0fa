import JSON

/// Another actor's change on the server.
public struct ServerChange: Sendable, Hashable {
    /// The acting client or user.
    public var actor: String
    /// "upsert" or "delete".
    public var op: String
    /// The table.
    public var table: String
    /// The row key.
    public var pk: String
    /// Columns written by an upsert.
    public var columns: JSONObject?
    /// The origin clock, for hlc-mode tables.
    public var hlc: String?
}
