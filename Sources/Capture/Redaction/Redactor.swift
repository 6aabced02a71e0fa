import JSON
import PowerSyncWire
import Synchronization

/// Applies a `RedactionPolicy` to what is about to be recorded, shared by every connection of
/// one recording: the same secret always gets the same placeholder (`<redacted:jwt:1>`), so
/// correlations survive, and placeholders are counters, never hashes that could be reversed.
public final class Redactor: Sendable {
    private struct Table {
        var placeholders: [String: String] = [:]
        var counters: [String: Int] = [:]
    }

    /// The policy applied.
    public let policy: RedactionPolicy
    /// The most secrets remembered; past it, new secrets still get fresh placeholders, unshared.
    public let capacity: Int
    private let table = Mutex(Table())

    /// Makes a redactor.
    /// - Parameters:
    ///   - policy: the policy.
    ///   - capacity: the most distinct secrets remembered for stable placeholders.
    public init(policy: RedactionPolicy, capacity: Int = 100_000) {
        self.policy = policy
        self.capacity = capacity
    }

    /// The placeholder of a secret, the same one every time within this redactor.
    /// - Parameters:
    ///   - secret: the secret value.
    ///   - kind: "jwt" or "secret".
    /// - Returns: e.g. `<redacted:jwt:3>`.
    public func placeholder(for secret: String, kind: String) -> String {
        table.withLock { table in
            if let known = table.placeholders[secret] { return known }
            let number = table.counters[kind, default: 0] + 1
            table.counters[kind] = number
            let placeholder = "<redacted:\(kind):\(number)>"
            if table.placeholders.count < capacity { table.placeholders[secret] = placeholder }
            return placeholder
        }
    }

    /// Skips placeholder numbers already in use.
    /// - Parameter highest: the highest number in use of each kind.
    func reserve(_ highest: [String: Int]) {
        table.withLock { table in
            for (kind, number) in highest where table.counters[kind, default: 0] < number { table.counters[kind] = number }
        }
    }

    /// A header value as recorded: the whole credential for a secret name (an authorization
    /// scheme such as `Bearer` is kept), else the value with JWT-shaped parts replaced.
    /// - Parameters:
    ///   - name: the header name.
    ///   - value: the value as sent.
    /// - Returns: the value to record.
    public func header(name: String, value: String) -> String {
        if policy.isKept(name) { return value }
        guard policy.isSecret(name) else { return Self.holdsURL(name: name, value: value) ? url(value) : text(value) }
        let lowered = name.lowercased()
        if lowered == "authorization" || lowered == "proxy-authorization", let space = value.firstIndex(of: " "),
            value[..<space].allSatisfy({ $0.isASCII && $0.isLetter })
        {
            let credential = String(value[value.index(after: space)...]).trimmingCharacters(in: " ")
            return "\(value[..<space]) \(secret(credential))"
        }
        return secret(value)
    }

    /// A JSON body as recorded: every value under a secret-named key replaced (objects and
    /// arrays whole), and secrets inside every string replaced as `text(_:)` does.
    /// - Parameter value: the parsed body.
    /// - Returns: the value to record.
    public func json(_ value: JSONValue) -> JSONValue {
        switch value {
        case .null, .bool, .number: return value
        case .string(let string): return .string(text(string))
        case .array(let elements): return .array(elements.map(json))
        case .object(let object):
            var redacted = JSONObject(capacity: object.members.count)
            for member in object.members {
                if policy.isKept(member.key) {
                    redacted.members.append(member)
                } else if policy.isSecret(member.key), member.value != .null {
                    let material: String
                    if case .string(let string) = member.value { material = string } else { material = CanonicalJSON.compact(member.value) }
                    redacted.append(member.key, .string(secret(material)))
                } else {
                    redacted.append(member.key, json(member.value))
                }
            }
            return .object(redacted)
        }
    }

    /// A whole secret's placeholder: kind "jwt" when it is JWT-shaped, else "secret".
    /// - Parameter value: the secret.
    /// - Returns: its placeholder; an empty value stays empty.
    public func secret(_ value: String) -> String {
        if value.isEmpty || Self.isPlaceholder(value) { return value }
        let bytes = Array(value.utf8)
        let whole = bytes.withUnsafeBufferPointer { Self.jwtRange(in: $0, from: 0) == 0..<$0.count }
        if whole { return placeholder(for: value, kind: "jwt") }
        return placeholder(for: value, kind: "secret")
    }

    /// Whether a value is exactly one placeholder, `<redacted:KIND:N>`.
    static func isPlaceholder(_ value: String) -> Bool {
        guard value.hasPrefix("<redacted:") else { return false }
        let bytes = Array(value.utf8)
        return PercentEncoding.placeholderLength(bytes, at: 0) == bytes.count
    }
}

extension String {
    fileprivate func trimmingCharacters(in character: Character) -> String {
        var view = Substring(self)
        while view.first == character { view = view.dropFirst() }
        while view.last == character { view = view.dropLast() }
        return String(view)
    }
}

extension Redactor {
    /// An NDJSON answer as recorded (docs/recording.md, "NDJSON answers"): a JSON array of its
    /// lines, each line redacted and re-encoded as its JSON value (or as a string when it is not
    /// JSON), so that a reader finds line *k* at index *k − 1*. A body cut mid-line keeps its
    /// whole lines only; the cut is handed back for the exchange's `:accord-ndjson-cut` note.
    /// - Parameters:
    ///   - bytes: the body as received (or its recorded prefix).
    ///   - contentEncoding: its `Content-Encoding`; an encoded body is described, not split.
    ///   - complete: false when `bytes` is a prefix of the body (cut or kept at the size limit).
    /// - Returns: the compact JSON to record and the cut line, if any.
    public func encodedNDJSON(_ bytes: [UInt8], contentEncoding: String?, complete: Bool) -> (encoded: [UInt8], cut: NDJSONLines.Cut?) {
        if let contentEncoding, contentEncoding.lowercased() != "identity" {
            return (encodedBody(bytes, contentEncoding: contentEncoding, complete: complete).encoded, nil)
        }
        let split = NDJSONLines(bytes, ended: complete)
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(bytes.count + bytes.count / 8 + 16)
        for (index, range) in split.lines.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += encodedBody(Array(bytes[range]), contentEncoding: nil, complete: true).encoded
        }
        out.append(UInt8(ascii: "]"))
        return (out, split.cut)
    }

    /// The note an exchange carries under `:accord-ndjson-cut` for a cut line.
    /// - Parameters:
    ///   - cut: the cut line.
    /// - Returns: e.g. "cut mid-line: 3 whole lines kept, the 17 bytes of NDJSON line 4 dropped".
    public static func ndjsonCutNote(_ cut: NDJSONLines.Cut) -> String {
        let kept = cut.line - 1
        return
            "cut mid-line: \(kept) whole line\(kept == 1 ? "" : "s") kept, the \(cut.droppedBytes) bytes of NDJSON line \(cut.line) dropped"
    }
}
