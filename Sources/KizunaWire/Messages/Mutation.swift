import JSON

/// One outbox mutation as pushed.
public struct Mutation: Sendable, Hashable {
    /// The mutation's id (a uuid).
    public var mutationID: String
    /// The table.
    public var table: String
    /// The row key text.
    public var pk: String
    /// The operation.
    public var op: MutationOp
    /// Masked columns: the key set is the update mask.
    public var columns: JSONObject
    /// Expected column values; a mismatch gives PRECONDITION.
    public var precondition: JSONObject?
    /// Field transforms by column, in wire order.
    public var transforms: [(column: String, transform: Transform)]
    /// The origin hybrid logical clock, `<iso>|<logical>|<node>`.
    public var hlc: String?
    /// The open-decision `base_hint` slot, kept verbatim.
    public var baseHint: JSONValue?
    /// True when the wire form carried a `transforms` object, even an empty one.
    public var hasTransformsKey: Bool

    /// Makes a mutation.
    /// - Parameters:
    ///   - mutationID: the id.
    ///   - table: the table.
    ///   - pk: the key.
    ///   - op: the operation.
    ///   - columns: the masked columns.
    ///   - precondition: expected values.
    ///   - transforms: field transforms.
    ///   - hlc: the origin clock.
    public init(
        mutationID: String, table: String, pk: String, op: MutationOp, columns: JSONObject, precondition: JSONObject? = nil,
        transforms: [(column: String, transform: Transform)] = [], hlc: String? = nil
    ) {
        self.mutationID = mutationID
        self.table = table
        self.pk = pk
        self.op = op
        self.columns = columns
        self.precondition = precondition
        self.transforms = transforms
        self.hlc = hlc
        self.baseHint = nil
        self.hasTransformsKey = !transforms.isEmpty
    }

    /// Reads a mutation strictly (common.schema.json#/$defs/mutation).
    /// - Parameters:
    ///   - value: the mutation object.
    ///   - pointer: where it sits.
    ///   - malformed: the error kind for shape problems.
    /// - Throws: `WireError` (`.unknownOp` for an op outside the closed set).
    public init(json value: JSONValue, at pointer: JSONPointer, malformed: WireError.Kind) throws(WireError) {
        var reader = try ObjectReader(value, at: pointer, malformed: malformed)
        self.mutationID = try reader.uuid("mutation_id")
        self.table = try reader.name("table")
        self.pk = try reader.rowKey("pk")
        self.op = try MutationOp.read(
            try reader.required("op"), at: pointer.appending("op"), unknown: .unknownOp, malformed: malformed, what: "op")
        self.columns = try reader.columns("columns")
        self.precondition = try reader.optionalColumns("precondition")
        var transforms: [(column: String, transform: Transform)] = []
        let transformsValue = reader.optional("transforms")
        self.hasTransformsKey = transformsValue != nil
        if let value = transformsValue {
            let at = pointer.appending("transforms")
            let object = try ObjectReader(value, at: at, malformed: malformed).object
            for member in object.members {
                if columns[member.key] != nil {
                    throw WireError(
                        malformed, at: at.appending(member.key), "column \"\(member.key)\" appears in both columns and transforms")
                }
                transforms.append((member.key, try Transform.read(member.value, at: at.appending(member.key), malformed: malformed)))
            }
            if !transforms.isEmpty && op != .update {
                throw WireError(malformed, at: at, "transforms ride op update only")
            }
        }
        self.transforms = transforms
        self.hlc = try reader.optionalString("hlc")
        if let hlc, !WireGrammar.isHLC(hlc) {
            throw WireError(malformed, at: pointer.appending("hlc"), "\"\(hlc)\" is not an origin clock <iso>|<logical>|<node>")
        }
        self.baseHint = reader.optional("base_hint")
        try reader.finish()
    }

    /// The wire form, keys in canonical order.
    public var json: JSONValue {
        var object = JSONObject()
        if let baseHint { object["base_hint"] = baseHint }
        object["columns"] = .object(columns)
        if let hlc { object["hlc"] = .string(hlc) }
        object["mutation_id"] = .string(mutationID)
        object["op"] = .string(op.rawValue)
        object["pk"] = .string(pk)
        if let precondition { object["precondition"] = .object(precondition) }
        object["table"] = .string(table)
        if hasTransformsKey || !transforms.isEmpty {
            object["transforms"] = .object(JSONObject(transforms.map { JSONObject.Member(key: $0.column, value: $0.transform.json) }))
        }
        return .object(object)
    }

    /// Compares every field, transforms in order.
    /// - Returns: whether they are equal.
    public static func == (lhs: Mutation, rhs: Mutation) -> Bool { lhs.json == rhs.json }

    /// Hashes the wire form.
    public func hash(into hasher: inout Hasher) { hasher.combine(json) }
}
