/// Which fields a relay passes on: hop-by-hop fields concern one connection only and are never
/// forwarded (RFC 9110 §7.6.1), in either direction. Written once, for the request the recorder
/// sends upstream and the answer it relays back.
extension HTTPHeaders {
    /// The hop-by-hop fields, lowercased; those a message's `Connection` names are hop-by-hop too.
    public static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "proxy-authorization",
        "proxy-authenticate",
    ]

    private static let hopByHopNames = Array(hopByHop)

    /// The fields of a message a relay passes on, in order: all but the hop-by-hop ones.
    /// - Parameter fields: the message's fields as received.
    /// - Returns: the fields to forward.
    public static func forwardable(_ fields: [(name: String, value: String)]) -> [(name: String, value: String)] {
        // Names listed in `Connection` are hop-by-hop too; most messages have none.
        var named: Set<String> = []
        for field in fields where sameName(field.name, "Connection") {
            for token in field.value.split(separator: ",") { named.insert(trimmed(token).lowercased()) }
        }
        var forwarded: [(name: String, value: String)] = []
        forwarded.reserveCapacity(fields.count)
        for field in fields where !isHopByHop(field.name) && (named.isEmpty || !named.contains(field.name.lowercased())) {
            forwarded.append(field)
        }
        return forwarded
    }

    /// Whether a field is one of `hopByHop`, compared without lowercasing it.
    /// - Parameter name: the field's name.
    /// - Returns: true for a hop-by-hop field.
    public static func isHopByHop(_ name: String) -> Bool { hopByHopNames.contains { sameName(name, $0) } }
}
