import JSON

extension ExchangeJudge {
    /// The longest value a one-line message shows whole; longer ones are cut with `…`.
    static let shownValueLength = 60

    /// " (golden "row one", live "row 1")": both values at the difference, each cut to
    /// `shownValueLength` characters so the line stays one line.
    static func values(at pointer: JSONPointer, expected: JSONValue, live: JSONValue, noun: String) -> String {
        " (\(noun) \(shown(expected.value(at: pointer))), live \(shown(live.value(at: pointer))))"
    }

    /// " in row todos pk "e1"": the entry of a page or batch a difference lies in, named by what
    /// the protocol keys it by (a row, tombstone or conflict by table and primary key, a verdict
    /// by its mutation id), from the reference answer or, when it has no such entry, the live one.
    static func place(of pointer: JSONPointer, expected: JSONValue, live: JSONValue) -> String {
        let tokens = pointer.tokens
        guard tokens.count >= 2, let list = tokens.first, Int(tokens[1]) != nil else { return "" }
        let entryPointer = JSONPointer(tokens: Array(tokens.prefix(2)))
        guard let entry = expected.value(at: entryPointer) ?? live.value(at: entryPointer) else { return "" }
        switch list {
        case "rows", "tombstones", "conflicts":
            guard let table = entry["table"]?.stringValue, let pk = entry["pk"] else { return "" }
            let noun = list == "rows" ? "row" : list == "tombstones" ? "tombstone" : "conflict"
            return " in \(noun) \(table) pk \(shown(pk))"
        case "verdicts":
            guard let id = entry["mutation_id"]?.stringValue else { return "" }
            return " in the verdict for mutation \(id)"
        default:
            return ""
        }
    }

    /// A value as one short line: canonical JSON, `absent` for none, cut with `…`.
    static func shown(_ value: JSONValue?) -> String {
        guard let value else { return "absent" }
        let text = CanonicalJSON.compact(value)
        return text.count <= shownValueLength ? text : String(text.prefix(shownValueLength - 1)) + "…"
    }
}
