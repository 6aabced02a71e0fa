import JSON

/// The canonical text of a row key (D-row-key): one key column gives its component text, several
/// give the JSON array of their component texts as Postgres prints jsonb (`["1", "12"]`).
enum RowKey {
    /// The component texts of `pk` for `keyColumns`, or nil when the text is not canonical.
    static func components(of pk: String, keyColumns: [String]) -> [String]? {
        if keyColumns.count == 1 { return [pk] }
        guard case .array(let items)? = try? JSONParser.parse(pk), items.count == keyColumns.count else { return nil }
        var parts: [String] = []
        for item in items {
            guard let text = item.stringValue else { return nil }
            parts.append(text)
        }
        return text(of: parts) == pk ? parts : nil
    }

    /// The canonical pk text of components.
    static func text(of components: [String]) -> String {
        if components.count == 1, let only = components.first { return only }
        var out: [UInt8] = [UInt8(ascii: "[")]
        for (index, part) in components.enumerated() {
            if index > 0 { out.append(contentsOf: ", ".utf8) }
            CanonicalJSON.appendString(part, to: &out)
        }
        out.append(UInt8(ascii: "]"))
        return String(decoding: out, as: UTF8.self)
    }

    /// The component text a column value spells: a string as is, an integer as its decimal.
    static func componentText(_ value: JSONValue) -> String? {
        switch value {
        case .string(let text): text
        case .number(let number) where number.isInteger: number.literal
        case .bool(let flag): flag ? "true" : "false"
        default: nil
        }
    }
}
