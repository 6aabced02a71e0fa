import Corpus
import JSON

/// Whole exchanges and recordings redacted, for what enters or leaves without passing the
/// proxy: HAR imports, every `accord convert` direction, recordings written by hand or by an
/// older build. The rules are the proxy's; what already is a placeholder stays as it is, and new
/// placeholders are numbered after the ones the content holds, so none is reused.
extension Redactor {
    /// Makes a redactor for content that may already hold placeholders.
    /// - Parameters:
    ///   - policy: the policy.
    ///   - content: the bytes of what will be redacted; its placeholders' numbers are skipped.
    public convenience init(policy: RedactionPolicy, continuingAfter content: [UInt8]) {
        self.init(policy: policy)
        continueNumbering(after: content)
    }

    /// Numbers new placeholders after the highest of each kind in `content`.
    /// - Parameter content: text holding placeholders such as `<redacted:jwt:4>`.
    public func continueNumbering(after content: [UInt8]) {
        var highest: [String: Int] = [:]
        var index = 0
        while index < content.count {
            guard content[index] == 0x3C, let length = PercentEncoding.placeholderLength(content, at: index) else {
                index += 1
                continue
            }
            let inner = String(decoding: content[(index + 10)..<(index + length - 1)], as: UTF8.self)
            let parts = inner.split(separator: ":")
            // A number past any real recording's count (a hand-made `<redacted:secret:9223372036854775807>`)
            // is not a count to go on from.
            if parts.count == 2, let number = Int(parts[1]), number < Self.largestPlaceholder {
                highest[String(parts[0]), default: 0] = max(highest[String(parts[0]), default: 0], number)
            }
            index += length
        }
        reserve(highest)
    }

    /// The largest placeholder number taken as in use.
    static var largestPlaceholder: Int { 1 << 40 }

    /// A recording with every exchange redacted.
    /// - Parameter recording: the recording as read.
    /// - Returns: the recording to write.
    public func recording(_ recording: RecordingContents) -> RecordingContents {
        var redacted = recording
        redacted.exchanges = recording.exchanges.map(exchange)
        return redacted
    }

    /// An exchange redacted as the proxy redacts what it records: path and query, every header
    /// value, both bodies, the identity.
    /// - Parameter exchange: the exchange as read.
    /// - Returns: the exchange to write.
    public func exchange(_ exchange: RecordedExchange) -> RecordedExchange {
        var redacted = exchange
        redacted.path = url(exchange.path)
        redacted.requestHeaders = headers(exchange.requestHeaders)
        redacted.responseHeaders = headers(exchange.responseHeaders)
        redacted.request = json(exchange.request)
        redacted.response = json(exchange.response)
        // The identity is read from a token or a body: a JWT-shaped client_id is a secret there too.
        redacted.user = exchange.user.map(text)
        redacted.client = exchange.client.map(text)
        return redacted
    }

    /// Header fields redacted by name; a repeated field (an array of values) value by value,
    /// Accord's own notes (`:accord-…`) as text, HTTP/2's `:path` and `:authority` as URLs.
    public func headers(_ object: JSONObject) -> JSONObject {
        JSONObject(
            pairs: object.members.map { member in
                let name = member.key
                switch member.value {
                case .string(let value):
                    return (name, .string(pseudoHeader(name: name, value: value)))
                case .array(let values):
                    return (name, .array(values.map { $0.stringValue.map { .string(header(name: name, value: $0)) } ?? json($0) }))
                default:
                    // A secret name's value is replaced whole whatever its type.
                    if policy.isSecret(name) && !policy.isKept(name) && member.value != .null {
                        return (name, .string(secret(CanonicalJSON.compact(member.value))))
                    }
                    return (name, json(member.value))
                }
            })
    }
}

extension Redactor {
    /// A header value by its name: Accord's own notes (`:accord-…`) as text, HTTP/2's `:path`
    /// and `:authority` (in a browser's HAR) as URLs, any other field as a header.
    func pseudoHeader(name: String, value: String) -> String {
        if name.hasPrefix(":accord-") { return text(value) }
        switch name.lowercased() {
        case ":path": return url(value)
        case ":authority": return String(url("//" + value).dropFirst(2))
        default: return header(name: name, value: value)
        }
    }
}

extension RedactionPolicy {
    /// The policy a recording's header states (`RedactionPolicy.json`): its added names and its
    /// kept names; the defaults for anything else it says (a HAR import's note, a hand-written
    /// header), so that content is never redacted less than by default.
    /// - Parameter recorded: the header's `redaction` member.
    public init(recorded: JSONValue) {
        let names = recorded["names"]?.arrayValue?.compactMap(\.stringValue) ?? []
        let kept = recorded["kept"]?.arrayValue?.compactMap(\.stringValue) ?? []
        self.init(redact: names.filter { !Self.defaultNames.contains($0.lowercased()) }, keep: kept)
    }
}
