import JSON

/// The four bucket operations.
public enum OpType: String, Sendable, Hashable, CaseIterable {
    /// A whole row; replaces any earlier PUT or REMOVE of the same key.
    case put = "PUT"
    /// A row removed from the bucket.
    case remove = "REMOVE"
    /// A tombstone for an op that was replaced; its checksum still counts.
    case move = "MOVE"
    /// A reset point: everything before it is gone, and its checksum stands for all of it.
    case clear = "CLEAR"
}

/// One op of a `data` line.
public struct OplogEntry: Sendable, Hashable {
    /// The op id.
    public var opID: OpID
    /// The operation.
    public var op: OpType
    /// The row's type (table), for PUT and REMOVE.
    public var objectType: String?
    /// The row's id, for PUT and REMOVE.
    public var objectID: String?
    /// The subkey, when the row has several.
    public var subkey: String?
    /// The row data (a JSON string, or an object for legacy clients), for PUT.
    public var data: JSONValue?
    /// The op's checksum.
    public var checksum: Checksum

    /// Makes an op.
    /// - Parameters:
    ///   - opID: the op id.
    ///   - op: the operation.
    ///   - checksum: the checksum.
    ///   - objectType: the row type.
    ///   - objectID: the row id.
    ///   - subkey: the row's subkey within its bucket, when the service gives one.
    ///   - data: the row data.
    public init(
        opID: OpID, op: OpType, checksum: Checksum, objectType: String? = nil, objectID: String? = nil, subkey: String? = nil,
        data: JSONValue? = nil
    ) {
        self.opID = opID
        self.op = op
        self.checksum = checksum
        self.objectType = objectType
        self.objectID = objectID
        self.subkey = subkey
        self.data = data
    }

    /// Reads an op: `op_id`, `op` and `checksum` always; PUT and REMOVE also name
    /// `object_type` and `object_id`; `data` and `subkey` are optional.
    /// - Parameters:
    ///   - json: the op object.
    ///   - pointer: where it sits.
    /// - Throws: `PowerSync.ShapeError` (.unknownOp for an op outside the four, else .malformedLine).
    public init(json: JSONValue, at pointer: JSONPointer) throws(PowerSync.ShapeError) {
        var reader = try MemberReader(json, at: pointer, kind: .malformedLine)
        opID = try reader.opID("op_id")
        let name = try reader.string("op")
        guard let op = OpType(rawValue: name) else {
            throw PowerSync.ShapeError(.unknownOp, at: pointer.appending("op"), "expected PUT|REMOVE|MOVE|CLEAR, found \"\(name)\"")
        }
        self.op = op
        checksum = try reader.checksum("checksum")
        if op == .put || op == .remove {
            objectType = try reader.string("object_type")
            objectID = try reader.string("object_id")
        } else {
            objectType = try reader.optionalString("object_type")
            objectID = try reader.optionalString("object_id")
        }
        subkey = try reader.optionalString("subkey")
        data = reader.optional("data")
        if let data {
            switch data {
            case .string, .object, .null: break
            default: throw reader.typeError("data", "a string, an object or null", data)
            }
        }
    }
}
