import JSON

/// JSON text helpers for stored values.
enum StoredJSON {
    static func text(_ value: JSONValue) -> String { CanonicalJSON.compact(value) }

    static func value(_ text: String) throws(ReferenceServerError) -> JSONValue {
        do {
            return try JSONParser.parse(text)
        } catch {
            throw ReferenceServerError.corrupt("stored JSON does not parse: \(text)")
        }
    }

    static func object(_ text: String) throws(ReferenceServerError) -> JSONObject {
        guard case .object(let object) = try value(text) else { throw ReferenceServerError.corrupt("stored row is not an object") }
        return object
    }
}
