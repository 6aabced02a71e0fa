/// Builders for the catalog's fixtures: short transcript step arrays in the corpus grammar,
/// with placeholder identities.
enum Fixture {
    static let user = "00000000-0000-4000-8000-a10000000001"
    static let client = "00000000-0000-4000-8000-c10000000001"

    static func row(_ n: Int) -> String { "00000000-0000-4000-8000-e1000000000\(n)" }
    static func mutation(_ n: Int) -> String { "00000000-0000-4000-8000-f1000000000\(n)" }

    static var bucket: String { #"[{"params":{"owner_id":"\#(user)"},"table":"todos"}]"# }

    /// A row entry `{pk, row, seq, table}`.
    static func rowEntry(seq: Int, pk: Int) -> String {
        #"{"pk":"\#(row(pk))","row":{"done":false,"owner_id":"\#(user)","title":"row \#(pk)"},"seq":"\#(seq)","table":"todos"}"#
    }

    /// A pull step.
    static func pull(
        _ n: Int, from cursor: String, limit: Int? = nil, to next: String, hasMore: Bool = false, rows: [(seq: Int, pk: Int)] = [],
        signal: String? = nil
    ) -> String {
        let limitText = limit.map { #","limit":\#($0)"# } ?? ""
        let signalText = signal.map { #"{"type":"\#($0)"}"# } ?? "null"
        let rowsText = rows.map { rowEntry(seq: $0.seq, pk: $0.pk) }.joined(separator: ",")
        return
            #"{"kind":"rpc","n":\#(n),"rpc":"pull","request":{"buckets":\#(bucket),"client_id":"\#(client)","cursor":"\#(cursor)"\#(limitText),"schema_version":1},"response":{"cursor":"\#(next)","has_more":\#(hasMore),"rows":[\#(rowsText)],"signal":\#(signalText),"tombstones":[]}}"#
    }

    /// An insert mutation.
    static func insert(_ m: Int, op: String = "insert") -> String {
        #"{"columns":{"done":false,"owner_id":"\#(user)","title":"row \#(m)"},"mutation_id":"\#(mutation(m))","op":"\#(op)","pk":"\#(row(m))","table":"todos"}"#
    }

    /// A push step.
    /// Step 1 as a signal page: a pull from `cursor` answered with `signal` and the cursor
    /// `next` (the request's own unless said), no data.
    static func signalPage(_ signal: String, from cursor: String = "3", to next: String? = nil) -> String {
        pull(1, from: cursor, to: next ?? cursor, signal: signal)
    }

    static func push(_ n: Int, atomic: Bool = false, mutations: [String], response: String) -> String {
        #"{"kind":"rpc","n":\#(n),"rpc":"push","request":{"batch":{"atomic":\#(atomic),"mutations":[\#(mutations.joined(separator: ","))]},"client_id":"\#(client)","last_mutation_id":null,"schema_version":1},"response":\#(response)}"#
    }

    static func applied(_ m: Int) -> String { #"{"mutation_id":"\#(mutation(m))","verdict":"applied"}"# }

    static func rejected(_ m: Int, reason: String) -> String {
        #"{"mutation_id":"\#(mutation(m))","reason":"\#(reason)","server_row":null,"verdict":"rejected"}"#
    }

    static func verdicts(_ items: String...) -> String { #"{"verdicts":[\#(items.joined(separator: ","))]}"# }

    static func abort(offender m: Int) -> String {
        #"{"batch":{"offender_mutation_id":"\#(mutation(m))","outcome":"aborted","reason":"CONSTRAINT","server_row":null}}"#
    }

    static func assertCursor(_ n: Int, _ value: String) -> String {
        #"{"checks":[{"check":"cursor","value":"\#(value)"}],"kind":"assert","n":\#(n)}"#
    }

    static func steps(_ items: [String]) -> String { "[" + items.joined(separator: ",") + "]" }
}
