/// `Codable` bridging, so Swift code that uses `JSONEncoder`/`JSONDecoder` can carry wire
/// values. Accord's own paths never use it: Foundation's decoders turn numbers into binary
/// values, so a non-integer read this way keeps only `Double`'s precision.
extension JSONValue: Codable {
    private struct Key: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Decodes any JSON value; object keys come out sorted because decoders do not keep order.
    /// - Throws: `DecodingError` when the value is not JSON.
    public init(from decoder: any Decoder) throws {
        if let object = try? decoder.container(keyedBy: Key.self) {
            var members: [JSONObject.Member] = []
            for key in object.allKeys.sorted(by: { $0.stringValue.utf8.lexicographicallyPrecedes($1.stringValue.utf8) }) {
                members.append(JSONObject.Member(key: key.stringValue, value: try object.decode(JSONValue.self, forKey: key)))
            }
            self = .object(JSONObject(members))
            return
        }
        if var array = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !array.isAtEnd { elements.append(try array.decode(JSONValue.self)) }
            self = .array(elements)
            return
        }
        let single = try decoder.singleValueContainer()
        if single.decodeNil() {
            self = .null
        } else if let bool = try? single.decode(Bool.self) {
            self = .bool(bool)
        } else if let integer = try? single.decode(Int64.self) {
            self = .number(JSONNumber(literal: String(integer)))
        } else if let integer = try? single.decode(UInt64.self) {
            self = .number(JSONNumber(literal: String(integer)))
        } else if let double = try? single.decode(Double.self) {
            self = .number(JSONNumber(literal: String(double)))
        } else {
            self = .string(try single.decode(String.self))
        }
    }

    /// Encodes the value; integers keep their exact value when they fit 64 bits.
    /// - Throws: `EncodingError` when a number literal cannot be represented.
    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .object(let object):
            var container = encoder.container(keyedBy: Key.self)
            for member in object.members { try container.encode(member.value, forKey: Key(stringValue: member.key)) }
        case .array(let array):
            var container = encoder.unkeyedContainer()
            for element in array { try container.encode(element) }
        case .null:
            var container = encoder.singleValueContainer()
            try container.encodeNil()
        case .bool(let bool):
            var container = encoder.singleValueContainer()
            try container.encode(bool)
        case .string(let string):
            var container = encoder.singleValueContainer()
            try container.encode(string)
        case .number(let number):
            var container = encoder.singleValueContainer()
            if let integer = Int64(number.literal) {
                try container.encode(integer)
            } else if let integer = UInt64(number.literal) {
                try container.encode(integer)
            } else if let double = Double(number.literal) {
                try container.encode(double)
            } else {
                throw EncodingError.invalidValue(
                    number.literal, EncodingError.Context(codingPath: encoder.codingPath, debugDescription: "not a number"))
            }
        }
    }
}
