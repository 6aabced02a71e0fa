import JSON

/// Deterministic rules that log every call: keys containing "tok" are secret, containing "keep"
/// copied, and strings containing "x" uppercased. A secret shows its material, so a wrong
/// material (unsorted keys, undecoded escapes) changes the output.
final class MarkingRules: JSONRewriteRules {
    var log: [String] = []

    func treatment(ofMember bytes: UnsafeBufferPointer<UInt8>) -> JSONMemberTreatment {
        let key = String(decoding: bytes, as: UTF8.self)
        log.append("key " + key)
        if key.contains("tok") { return .secret }
        return key.contains("keep") ? .copy : .rewrite
    }

    func rewrite(string: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let text = String(decoding: string, as: UTF8.self)
        log.append("string " + text)
        guard string.contains(UInt8(ascii: "x")) else { return nil }
        return Array(text.uppercased().utf8)
    }

    func secret(_ material: String) -> String {
        log.append("secret " + material)
        return "<secret " + material + ">"
    }
}

/// The contract's reference: parse into a tree, apply the rules to the tree, write compactly
/// with keys in their order.
enum RewriteReference {
    static func apply(_ value: JSONValue, _ rules: some JSONRewriteRules) -> JSONValue {
        switch value {
        case .null, .bool, .number: return value
        case .string(let string):
            var string = string
            guard let replacement = string.withUTF8({ rules.rewrite(string: $0) }) else { return value }
            return .string(String(decoding: replacement, as: UTF8.self))
        case .array(let elements): return .array(elements.map { apply($0, rules) })
        case .object(let object):
            var members: [JSONObject.Member] = []
            for member in object.members {
                var key = member.key
                switch key.withUTF8({ rules.treatment(ofMember: $0) }) {
                case .copy: members.append(member)
                case .rewrite: members.append(JSONObject.Member(key: member.key, value: apply(member.value, rules)))
                case .secret:
                    var replaced = member.value
                    if case .string(let string) = member.value {
                        replaced = .string(rules.secret(string))
                    } else if member.value != .null {
                        replaced = .string(rules.secret(CanonicalJSON.compact(member.value)))
                    }
                    members.append(JSONObject.Member(key: member.key, value: replaced))
                }
            }
            return .object(JSONObject(members))
        }
    }

    /// The compact bytes and the captured string, or nil when the parser refuses the document.
    static func rewrite(_ bytes: [UInt8], _ rules: some JSONRewriteRules, capturing key: String?) -> (bytes: [UInt8], captured: String?)? {
        guard let value = try? JSONParser.parse(bytes) else { return nil }
        var captured: String?
        if let key, case .object(let object) = value, let member = object.members.first(where: { JSONObject.sameKey($0.key, key) }) {
            captured = member.value.stringValue
        }
        var out: [UInt8] = []
        CanonicalJSON.writeCompact(apply(value, rules), into: &out, sortingKeys: false)
        return (out, captured)
    }
}

/// Runs the rewriter on `bytes` after a non-empty prefix, so "left as it was" is checked too.
func runRewriter(_ bytes: [UInt8], _ rules: some JSONRewriteRules, capturing key: String? = nil) -> (
    valid: Bool, out: [UInt8], captured: String?, prefixKept: Bool
) {
    let prefix = Array("PREFIX".utf8)
    var out = prefix
    let (valid, captured) = bytes.withUnsafeBufferPointer { JSONRewriter.rewrite($0, into: &out, rules: rules, capturing: key) }
    let kept = out.starts(with: prefix)
    return (valid, Array(out.dropFirst(prefix.count)), captured, kept)
}

/// The reference's rule calls as the rewriter makes them: it asks about each key once (the
/// first 32 distinct keys of at most 64 bytes are remembered), everything else in order.
func askingEachKeyOnce(_ log: [String]) -> [String] {
    var known: Set<String> = []
    return log.filter { entry in
        guard entry.hasPrefix("key ") else { return true }
        let key = String(entry.dropFirst(4))
        if known.contains(key) { return false }
        if known.count < 32 && key.utf8.count <= 64 { known.insert(key) }
        return true
    }
}
