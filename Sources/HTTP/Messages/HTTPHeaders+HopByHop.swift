/// Which fields a relay passes on: hop-by-hop fields concern one connection only and are never
/// forwarded (RFC 9110 §7.6.1), in either direction. Written once, for the request the recorder
/// sends upstream and the answer it relays back.
extension HTTPHeaders {
    /// The hop-by-hop fields, lowercased; those a message's `Connection` names are hop-by-hop too.
    public static let hopByHop: Set<String> = [
        "connection", "keep-alive", "proxy-connection", "te", "trailer", "transfer-encoding", "upgrade", "proxy-authorization",
        "proxy-authenticate",
    ]

    /// The fields of a message a relay passes on, in order: all but the hop-by-hop ones.
    /// - Parameter fields: the message's fields as received.
    /// - Returns: the fields to forward.
    public static func forwardable(_ fields: [(name: String, value: String)]) -> [(name: String, value: String)] {
        let named = connectionNamed(fields)
        var forwarded: [(name: String, value: String)] = []
        forwarded.reserveCapacity(fields.count)
        for field in fields where isForwarded(field.name, connectionNamed: named) { forwarded.append(field) }
        return forwarded
    }

    /// The names a message's `Connection` fields list, lowercased: hop-by-hop for that message
    /// too. Most messages list none (and the set stays empty, allocating nothing).
    /// - Parameter fields: the message's fields as received, in any sequence (a relay passes
    ///   its own, so that it filters them in one pass into what it sends, with no array between).
    /// - Returns: the names listed.
    @inlinable
    public static func connectionNamed(_ fields: some Sequence<(name: String, value: String)>) -> Set<String> {
        var named: Set<String> = []
        for field in fields where sameName(field.name, "Connection") {
            for token in field.value.split(separator: ",") { named.insert(trimmed(token).lowercased()) }
        }
        return named
    }

    /// Whether a relay passes a field on: it is not hop-by-hop, nor listed by its message's
    /// `Connection` field.
    /// - Parameters:
    ///   - name: the field's name.
    ///   - named: the message's `connectionNamed(_:)`.
    /// - Returns: true for a field to forward.
    public static func isForwarded(_ name: String, connectionNamed named: Set<String>) -> Bool {
        !isHopByHop(name) && (named.isEmpty || !named.contains(name.lowercased()))
    }

    /// Whether a field is one of `hopByHop`, compared without lowercasing it. Chosen by the
    /// name's length first, so that most fields (`Content-Type`, `Authorization`, …) are
    /// compared with nothing and the others with one or two literals (no array of names walked
    /// for every field of every relayed message); a test holds it to `hopByHop`.
    /// - Parameter name: the field's name.
    /// - Returns: true for a hop-by-hop field.
    public static func isHopByHop(_ name: String) -> Bool {
        switch name.utf8.count {
        case 2: sameName(name, "te")
        case 7: sameName(name, "trailer") || sameName(name, "upgrade")
        case 10: sameName(name, "connection") || sameName(name, "keep-alive")
        case 16: sameName(name, "proxy-connection")
        case 17: sameName(name, "transfer-encoding")
        case 18: sameName(name, "proxy-authenticate")
        case 19: sameName(name, "proxy-authorization")
        default: false
        }
    }
}
