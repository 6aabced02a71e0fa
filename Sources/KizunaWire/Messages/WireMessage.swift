import JSON

/// A message that reads strictly from JSON and writes back its wire form; `Codable` through
/// its JSON form, with the same strict checks.
public protocol WireMessage: Sendable, Hashable, Codable {
    /// Reads the message strictly.
    /// - Parameters:
    ///   - json: the message body.
    ///   - pointer: where the body sits (root for a whole message).
    /// - Throws: `WireError` naming the protocol code and the pointer of the offending value.
    init(json: JSONValue, at pointer: JSONPointer) throws(WireError)
    /// The wire form.
    var json: JSONValue { get }
}

extension WireMessage {
    /// Reads the message from a whole body.
    /// - Throws: `WireError` naming the protocol code and pointer.
    public init(json: JSONValue) throws(WireError) { try self.init(json: json, at: .root) }

    /// Decodes the message strictly from any `Decoder`.
    /// - Throws: `WireError` when the value breaks the message's schema.
    public init(from decoder: any Decoder) throws {
        try self.init(json: try JSONValue(from: decoder), at: .root)
    }

    /// Encodes the message's wire form.
    /// - Throws: `EncodingError` from the encoder.
    public func encode(to encoder: any Encoder) throws { try json.encode(to: encoder) }

    /// Reads the message from UTF-8 bytes.
    /// - Parameter bytes: the body bytes.
    /// - Throws: `WireError` with kind `.json` when the bytes are not JSON, else as `init(json:)`.
    public init(bytes: [UInt8]) throws(WireError) {
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes)
        } catch {
            throw WireError(.json, at: .root, "body is not JSON: \(error)")
        }
        try self.init(json: value, at: .root)
    }
}
