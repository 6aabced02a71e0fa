import JSON

/// The strict object reader (`StrictObjectReader`: each key once) with PowerSync's error kinds,
/// every shape error of `kind`. Members it does not read are allowed, as PowerSync's service allows them in
/// requests (`allowAdditional`) and its SDK core ignores them in lines and answers (serde without
/// `deny_unknown_fields`, powersync-sqlite-core 60ebb70).
struct MemberReader {
    private var reader: StrictObjectReader<PowerSync.ShapeErrorKind>
    /// The error kind of shape problems.
    let kind: PowerSync.ShapeError.Kind

    /// Where the object sits.
    var pointer: JSONPointer { reader.pointer }

    init(_ value: JSONValue, at pointer: JSONPointer, kind: PowerSync.ShapeError.Kind) throws(PowerSync.ShapeError) {
        reader = try StrictObjectReader(value, at: pointer, malformed: kind)
        self.kind = kind
    }

    /// The object read.
    var object: JSONObject { reader.object }

    mutating func optional(_ key: String) -> JSONValue? { reader.optional(key) }

    mutating func required(_ key: String) throws(PowerSync.ShapeError) -> JSONValue {
        guard let value = reader.optional(key) else { throw PowerSync.ShapeError(kind, at: pointer, "missing required key \"\(key)\"") }
        return value
    }

    mutating func string(_ key: String) throws(PowerSync.ShapeError) -> String {
        let value = try required(key)
        guard case .string(let text) = value else { throw typeError(key, "a string", value) }
        return text
    }

    mutating func optionalString(_ key: String) throws(PowerSync.ShapeError) -> String? {
        guard let value = reader.optional(key) else { return nil }
        guard case .string(let text) = value else { throw typeError(key, "a string", value) }
        return text
    }

    mutating func bool(_ key: String) throws(PowerSync.ShapeError) -> Bool {
        let value = try required(key)
        guard case .bool(let flag) = value else { throw typeError(key, "a boolean", value) }
        return flag
    }

    mutating func optionalBool(_ key: String) throws(PowerSync.ShapeError) -> Bool? {
        guard let value = reader.optional(key) else { return nil }
        guard case .bool(let flag) = value else { throw typeError(key, "a boolean", value) }
        return flag
    }

    mutating func array(_ key: String) throws(PowerSync.ShapeError) -> [JSONValue] {
        let value = try required(key)
        guard case .array(let elements) = value else { throw typeError(key, "an array", value) }
        return elements
    }

    mutating func integer(_ key: String, in range: ClosedRange<Int>) throws(PowerSync.ShapeError) -> Int {
        let value = try required(key)
        guard case .number(let number) = value, let integer = number.intValue else { throw typeError(key, "an integer", value) }
        guard range.contains(integer) else {
            throw PowerSync.ShapeError(
                kind, at: pointer.appending(key), "\(key) is \(range.lowerBound) through \(range.upperBound), found \(integer)")
        }
        return integer
    }

    mutating func opID(_ key: String) throws(PowerSync.ShapeError) -> OpID {
        try OpID.read(try required(key), at: pointer.appending(key), kind: kind)
    }

    mutating func optionalOpID(_ key: String) throws(PowerSync.ShapeError) -> OpID? {
        guard let value = reader.optional(key), !value.isNull else { return nil }
        return try OpID.read(value, at: pointer.appending(key), kind: kind)
    }

    mutating func checksum(_ key: String) throws(PowerSync.ShapeError) -> Checksum {
        let at = pointer.appending(key)
        do throws(PowerSync.ShapeError) {
            return try Checksum.read(try required(key), at: at)
        } catch {
            throw PowerSync.ShapeError(kind, at: error.pointer, error.detail)
        }
    }

    func typeError(_ key: String, _ expected: String, _ value: JSONValue) -> PowerSync.ShapeError {
        PowerSync.ShapeError(kind, at: pointer.appending(key), "expected \(expected), found \(value.typeName)")
    }

    /// Reads `{"data": {key: op id, …}, …}`, the envelope PowerSync's service puts every
    /// non-stream answer in (service-core `routes/route-register.ts`); other members of either
    /// object are allowed.
    /// - Parameters:
    ///   - key: the member of `data`.
    ///   - value: the answer.
    ///   - pointer: where it sits.
    ///   - kind: the error kind of shape problems.
    /// - Returns: the op id.
    static func enveloped(
        _ key: String, in value: JSONValue, at pointer: JSONPointer, kind: PowerSync.ShapeError.Kind
    ) throws(PowerSync.ShapeError) -> OpID {
        var outer = try MemberReader(value, at: pointer, kind: kind)
        var inner = try MemberReader(try outer.required("data"), at: pointer.appending("data"), kind: kind)
        return try inner.opID(key)
    }

    /// `{"data": {key: value}}`.
    static func envelope(_ key: String, _ value: JSONValue) -> JSONValue {
        .object(JSONObject(pairs: [("data", .object(JSONObject(pairs: [(key, value)])))]))
    }
}
