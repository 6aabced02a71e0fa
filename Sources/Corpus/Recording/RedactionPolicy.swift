import KizunaWire

/// Which header fields, query parameters and JSON keys a recording hides, and how: the value
/// becomes a placeholder such as `<redacted:jwt:1>` or `<redacted:secret:2>`, numbered in order
/// of first appearance, so equal secrets keep equal placeholders within one recording.
/// JWT-shaped values (three base64url segments, the first a JSON header `eyJ…`) are replaced
/// wherever they appear, whatever their name.
public struct RedactionPolicy: Sendable, Hashable {
    /// Names always redacted, compared case-insensitively.
    public static let defaultNames = ["authorization", "proxy-authorization", "apikey", "cookie", "set-cookie"]
    /// Substrings that make a name secret, compared case-insensitively.
    public static let namePatterns = ["token", "secret", "password"]

    /// Further names to redact (`--redact`), lowercased.
    public private(set) var addedNames: [String]
    /// Names exempted (`--keep`), lowercased; they win over every other rule.
    public private(set) var keptNames: [String]

    /// Makes a policy.
    /// - Parameters:
    ///   - redact: further header or key names to redact.
    ///   - keep: header or key names to leave as they are.
    public init(redact: [String] = [], keep: [String] = []) {
        addedNames = Self.unique(redact.map { $0.lowercased() })
        keptNames = Self.unique(keep.map { $0.lowercased() })
    }

    /// Whether a header, query parameter or JSON key names a secret.
    /// - Parameter name: the name as written.
    /// - Returns: true when its value is replaced by a placeholder.
    public func isSecret(_ name: String) -> Bool {
        var name = name
        return name.withUTF8 { bytes in
            if keptNames.contains(where: { Self.equalFolded(bytes, $0) }) { return false }
            if Self.defaultNames.contains(where: { Self.equalFolded(bytes, $0) }) { return true }
            if addedNames.contains(where: { Self.equalFolded(bytes, $0) }) { return true }
            return Self.namePatterns.contains { Self.containsFolded(bytes, $0) }
        }
    }

    @inline(__always) private static func folded(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    /// Whether `bytes`, ASCII-lowercased, equal the lowercase `name` (no allocation on this hot path).
    private static func equalFolded(_ bytes: UnsafeBufferPointer<UInt8>, _ name: String) -> Bool {
        name.utf8.count == bytes.count && zip(bytes, name.utf8).allSatisfy { folded($0) == $1 }
    }

    /// Whether `bytes`, ASCII-lowercased, contain the lowercase `pattern`.
    private static func containsFolded(_ bytes: UnsafeBufferPointer<UInt8>, _ pattern: String) -> Bool {
        let needle = pattern.utf8
        guard let first = needle.first, bytes.count >= needle.count else { return false }
        var index = 0
        while index + needle.count <= bytes.count {
            if folded(bytes[index]) == first
                && zip(bytes[index..<(index + needle.count)], needle).allSatisfy({ folded($0) == $1 })
            {
                return true
            }
            index += 1
        }
        return false
    }

    /// Whether a name is exempted with `--keep` (JWT-shaped values under it are kept too).
    /// - Parameter name: the name as written.
    /// - Returns: true when nothing under it is redacted.
    public func isKept(_ name: String) -> Bool { !keptNames.isEmpty && keptNames.contains(name.lowercased()) }

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
