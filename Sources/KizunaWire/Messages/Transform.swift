import JSON

/// A field transform on an update (D-field-transforms).
public enum Transform: Sendable, Hashable {
    /// Adds `by` (a JSON integer, or a decimal string past 2^31) to the column.
    case increment(by: JSONValue)
    /// Adds the values that are missing from the array column.
    case arrayUnion([JSONValue])
    /// Removes the values from the array column.
    case arrayRemove([JSONValue])

    /// Reads a transform strictly.
    /// - Parameters:
    ///   - value: the transform object.
    ///   - pointer: where it sits.
    ///   - malformed: the error kind for shape problems.
    /// - Returns: the transform.
    /// - Throws: `WireError` for an unknown transform op or a bad shape.
    public static func read(_ value: JSONValue, at pointer: JSONPointer, malformed: WireError.Kind) throws(WireError) -> Transform {
        var reader = try ObjectReader(value, at: pointer, malformed: malformed)
        let op = try reader.string("op")
        let transform: Transform
        switch op {
        case "increment":
            let by = try reader.required("by")
            switch by {
            case .number(let number) where number.isInteger: break
            case .string(let text) where text.wholeMatch(of: /-?(0|[1-9][0-9]*)/) != nil: break
            default: throw WireError(malformed, at: pointer.appending("by"), "increment.by is an integer or a decimal string")
            }
            transform = .increment(by: by)
        case "arrayUnion", "arrayRemove":
            let values = try reader.array("values")
            if values.isEmpty { throw WireError(malformed, at: pointer.appending("values"), "values needs at least one item") }
            for (index, item) in values.enumerated() {
                switch item {
                case .string, .bool: continue
                case .number(let number) where number.isInteger: continue
                default:
                    throw WireError(
                        malformed, at: pointer.appending("values").appending(index),
                        "array items are strings, integers or booleans, found \(item.typeName)")
                }
            }
            transform = op == "arrayUnion" ? .arrayUnion(values) : .arrayRemove(values)
        default:
            throw WireError(malformed, at: pointer.appending("op"), "unknown transform op \"\(op)\"")
        }
        try reader.finish()
        return transform
    }

    /// The wire form.
    public var json: JSONValue {
        switch self {
        case .increment(let by): ["by": by, "op": "increment"]
        case .arrayUnion(let values): ["op": "arrayUnion", "values": .array(values)]
        case .arrayRemove(let values): ["op": "arrayRemove", "values": .array(values)]
        }
    }
}
