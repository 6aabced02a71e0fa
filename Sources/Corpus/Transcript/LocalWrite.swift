import JSON
import KizunaWire

/// A client-local write.
public struct LocalWrite: Sendable, Hashable {
    /// The mutation id the write enqueues.
    public var mutationID: String
    /// The operation.
    public var op: MutationOp
    /// The table.
    public var table: String
    /// The row key.
    public var pk: String
    /// The masked columns.
    public var columns: JSONObject
    /// Expected values.
    public var precondition: JSONObject?
    /// Field transforms by column.
    public var transforms: [(column: String, transform: Transform)]
    /// The engine error code the client must refuse the write with.
    public var expectError: String?

    /// Compares the wire forms.
    /// - Returns: whether they are equal.
    public static func == (lhs: LocalWrite, rhs: LocalWrite) -> Bool {
        lhs.mutationID == rhs.mutationID && lhs.op == rhs.op && lhs.table == rhs.table && lhs.pk == rhs.pk
            && lhs.columns == rhs.columns && lhs.precondition == rhs.precondition && lhs.expectError == rhs.expectError
            && lhs.transforms.map(\.column) == rhs.transforms.map(\.column)
            && lhs.transforms.map(\.transform) == rhs.transforms.map(\.transform)
    }

    /// Hashes the identifying fields.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(mutationID)
        hasher.combine(columns)
    }
}
