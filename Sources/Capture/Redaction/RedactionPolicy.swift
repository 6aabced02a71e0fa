import JSON

/// Which header fields, query parameters and JSON keys a recording hides, and how: the value
/// becomes a placeholder such as `<redacted:jwt:1>` or `<redacted:secret:2>`, numbered in order
/// of first appearance, so equal secrets keep equal placeholders within one recording.
/// JWT-shaped values (three base64url segments, the first a JSON header `eyJ…`) are replaced
/// wherever they appear, whatever their name.
public struct RedactionPolicy: Sendable, Hashable {
    /// Names always redacted, compared case-insensitively.
    public static let defaultNames = ["authorization", "proxy-authorization", "apikey", "cookie", "set-cookie"]
    /// Substrings that make a name secret, compared case-insensitively.
    public static let namePatterns = ["token", "secret", "password", "passwd", "apikey", "api_key", "api-key"]
    /// Protocol members whose names match a pattern but hold no secret, so the pattern does not
    /// apply to them (a `--redact` name still does, and a JWT-shaped value is still replaced):
    /// PowerSync's `token_expires_in` line, the seconds left before the client's token expires,
    /// which the PS rules read.
    public static let protocolNames = ["token_expires_in"]

    /// Further names to redact (`--redact`), lowercased.
    public private(set) var addedNames: [String]
    /// Names exempted (`--keep`), lowercased; they win over every other rule.
    public private(set) var keptNames: [String]
    /// The shortest name or pattern that makes a name secret: shorter names (most JSON keys,
    /// such as `id` or `seq`) are told apart without comparing.
    private var shortestSecret: Int

    /// Makes a policy.
    /// - Parameters:
    ///   - redact: further header or key names to redact.
    ///   - keep: header or key names to leave as they are.
    public init(redact: [String] = [], keep: [String] = []) {
        addedNames = Self.unique(redact.map { $0.lowercased() })
        keptNames = Self.unique(keep.map { $0.lowercased() })
        shortestSecret = (Self.defaultNames + Self.namePatterns + addedNames).map(\.utf8.count).min() ?? 0
    }

    /// Whether a header, query parameter or JSON key names a secret.
    /// - Parameter name: the name as written.
    /// - Returns: true when its value is replaced by a placeholder.
    public func isSecret(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { isSecret(utf8: $0) }
    }

    /// Whether a name, given as UTF-8 bytes, names a secret.
    /// - Parameter bytes: the name as written.
    /// - Returns: true when its value is replaced by a placeholder.
    /// A name is read as its peer would: percent-decoded first (`pass%77ord`), then whole and
    /// part by part, parts being what `[`, `]`, `.` and `#` separate (`user[password]`,
    /// `session.apikey`), so a default name nested in a structured one still counts.
    public func isSecret(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if bytes.count < shortestSecret { return false }
        guard WireName.isStructured(bytes) else { return isSecret(plain: bytes) }
        let decoded = WireName.decoded(bytes)
        return decoded.withUnsafeBufferPointer { name in
            if isKept(plain: name) { return false }
            if isSecret(plain: name) { return true }
            return WireName.parts(of: name).contains { part in
                isSecret(plain: UnsafeBufferPointer(rebasing: name[part]))
            }
        }
    }

    /// The rules on a name as it is, without decoding or splitting.
    private func isSecret(plain bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if bytes.count < shortestSecret { return false }
        if isKept(plain: bytes) { return false }
        if Self.defaultNameBytes.contains(where: { Self.equalFolded(bytes, $0) }) { return true }
        if !addedNames.isEmpty && addedNames.contains(where: { Self.equalFolded(bytes, Array($0.utf8)) }) { return true }
        if Self.protocolNameBytes.contains(where: { Self.equalFolded(bytes, $0) }) { return false }
        return Self.namePatternBytes.contains { Self.containsFolded(bytes, $0) }
    }

    private func isKept(plain bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        !keptNames.isEmpty && keptNames.contains(where: { Self.equalFolded(bytes, Array($0.utf8)) })
    }

    private static let defaultNameBytes = defaultNames.map { Array($0.utf8) }
    private static let namePatternBytes = namePatterns.map { Array($0.utf8) }
    private static let protocolNameBytes = protocolNames.map { Array($0.utf8) }

    @inline(__always) private static func folded(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    /// Whether `bytes`, ASCII-lowercased, equal the lowercase `name` (no allocation on this hot path).
    private static func equalFolded(_ bytes: UnsafeBufferPointer<UInt8>, _ name: [UInt8]) -> Bool {
        guard name.count == bytes.count else { return false }
        for index in 0..<name.count where folded(bytes[index]) != name[index] { return false }
        return true
    }

    /// Whether `bytes`, ASCII-lowercased, contain the lowercase `needle`.
    private static func containsFolded(_ bytes: UnsafeBufferPointer<UInt8>, _ needle: [UInt8]) -> Bool {
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        var index = 0
        while index + needle.count <= bytes.count {
            if folded(bytes[index]) == first {
                var offset = 1
                while offset < needle.count, folded(bytes[index + offset]) == needle[offset] { offset += 1 }
                if offset == needle.count { return true }
            }
            index += 1
        }
        return false
    }

    /// Whether a name is exempted with `--keep` (JWT-shaped values under it are kept too).
    /// - Parameter name: the name as written.
    /// - Returns: true when nothing under it is redacted.
    public func isKept(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { isKept(utf8: $0) }
    }

    /// Whether a name, given as UTF-8 bytes, is exempted with `--keep`.
    /// - Parameter bytes: the name as written.
    /// - Returns: true when it is kept as it is.
    public func isKept(utf8 bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if keptNames.isEmpty { return false }
        guard WireName.isStructured(bytes) else { return isKept(plain: bytes) }
        return WireName.decoded(bytes).withUnsafeBufferPointer { isKept(plain: $0) }
    }

    /// The policy as recorded in a recording's header line.
    public var json: JSONValue {
        [
            "enabled": true,
            "names": .array((Self.defaultNames + addedNames).map { .string($0) }),
            "name_patterns": .array(Self.namePatterns.map { .string("*\($0)*") }),
            "kept": .array(keptNames.map { .string($0) }),
            "jwt_values": true,
            "placeholder": "<redacted:KIND:N>",
            "scope": ["request_headers", "response_headers", "query", "request", "response"],
        ]
    }

    private static func unique(_ names: [String]) -> [String] {
        var seen: [String] = []
        for name in names where !name.isEmpty && !seen.contains(name) { seen.append(name) }
        return seen
    }
}
