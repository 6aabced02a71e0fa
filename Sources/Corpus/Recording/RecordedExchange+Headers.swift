import JSON

extension RecordedExchange {
    /// Header fields as a recording holds them: names as written, in order of first appearance,
    /// a repeated name as an array of its values in order. Shared by the proxy and HAR import;
    /// the values are as given (redact with `Redactor.headers(_:)`).
    /// - Parameter fields: the fields in wire order.
    /// - Returns: the header object.
    public static func headerObject(_ fields: [(name: String, value: String)]) -> JSONObject {
        var object = JSONObject(capacity: fields.count)
        var position: [String: Int] = [:]
        var repeated: [Int: [JSONValue]] = [:]
        for (name, value) in fields {
            if let index = position[name] {
                repeated[index, default: [object.members[index].value]].append(.string(value))
            } else {
                position[name] = object.count
                object.append(name, .string(value))
            }
        }
        for (index, values) in repeated { object.members[index].value = .array(values) }
        return object
    }
}
