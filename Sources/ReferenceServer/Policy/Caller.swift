import JSON

/// The caller of an RPC as the server sees it: the user (bucket owner) and the client.
struct Caller: Sendable {
    var user: String
    var client: String

    /// True when the row lies in the caller's read policy: its bucket column names the user.
    func canSee(_ data: JSONObject, in table: SyncedTable) -> Bool {
        guard let bucketColumn = table.bucketColumn else { return true }
        return data[bucketColumn] == .string(user)
    }

    /// The row rendered under the caller's read policy: nil when absent or invisible.
    func render(_ row: StoredRow?, in table: SyncedTable) -> JSONObject? {
        guard let row, canSee(row.data, in: table) else { return nil }
        return row.data
    }
}
