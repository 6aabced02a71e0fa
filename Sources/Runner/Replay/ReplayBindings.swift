import KizunaWire

/// The binding table of one replayed session: server-made values of the recording mapped to the
/// values the live server made in their place. After each exchange the recorded and live
/// responses are walked side by side; wherever both hold a string under a key the server makes
/// (`cursor`, `seq`, `winner_seq`, `deleted_at`) at the same pointer and the strings differ, the
/// recorded value is bound to the live one (a later binding of the same value wins). Before a
/// recorded request is sent, every string under one of those keys, anywhere in the body, whose
/// value is bound is replaced by its live value; nothing else in a request is touched.
public struct ReplayBindings: Sendable, Hashable {
    /// The keys whose values a server makes.
    public static let boundKeys: Set<String> = ["cursor", "seq", "winner_seq", "deleted_at"]

    /// Recorded value → live value.
    public private(set) var table: [String: String] = [:]

    /// An empty table.
    public init() {}

    /// One substitution made in a request.
    public struct Substitution: Sendable, Hashable, CustomStringConvertible {
        /// Where in the request.
        public var pointer: JSONPointer
        /// The recorded value.
        public var recorded: String
        /// The live value sent instead.
        public var live: String

        /// "cursor 17→5 at /cursor".
        public var description: String { "\(pointer.tokens.last ?? "") \(recorded)→\(live) at \(pointer)" }
    }

    /// Learns bindings from a recorded response and the live one.
    /// - Parameters:
    ///   - recorded: the recorded response.
    ///   - live: the live response.
    /// - Returns: the new or changed bindings, as recorded → live pairs.
    @discardableResult
    public mutating func learn(recorded: JSONValue, live: JSONValue) -> [(recorded: String, live: String)] {
        var learned: [(recorded: String, live: String)] = []
        walk(recorded, live, key: nil, into: &learned)
        return learned
    }

    private mutating func walk(
        _ recorded: JSONValue, _ live: JSONValue, key: String?, into learned: inout [(recorded: String, live: String)]
    ) {
        switch (recorded, live) {
        case (.object(let left), .object(let right)):
            for member in left.members {
                guard let other = right[member.key] else { continue }
                walk(member.value, other, key: member.key, into: &learned)
            }
        case (.array(let left), .array(let right)):
            for (index, element) in left.enumerated() where index < right.count {
                walk(element, right[index], key: key, into: &learned)
            }
        case (.string(let old), .string(let new)):
            guard let key, Self.boundKeys.contains(key), old != new, table[old] != new else { return }
            table[old] = new
            learned.append((old, new))
        default:
            return
        }
    }

    /// A recorded request with bound values replaced by their live values.
    /// - Parameter request: the recorded request.
    /// - Returns: the request to send and the substitutions made.
    public func apply(to request: JSONValue) -> (JSONValue, [Substitution]) {
        var substitutions: [Substitution] = []
        let rewritten = rewrite(request, key: nil, at: .root, into: &substitutions)
        return (rewritten, substitutions)
    }

    private func rewrite(_ value: JSONValue, key: String?, at pointer: JSONPointer, into substitutions: inout [Substitution]) -> JSONValue {
        switch value {
        case .object(let object):
            return .object(
                JSONObject(
                    object.members.map { member in
                        JSONObject.Member(
                            key: member.key,
                            value: rewrite(member.value, key: member.key, at: pointer.appending(member.key), into: &substitutions))
                    }))
        case .array(let elements):
            return .array(
                elements.enumerated().map { index, element in
                    rewrite(element, key: key, at: pointer.appending(index), into: &substitutions)
                })
        case .string(let text):
            guard let key, Self.boundKeys.contains(key), let live = table[text] else { return value }
            substitutions.append(Substitution(pointer: pointer, recorded: text, live: live))
            return .string(live)
        default:
            return value
        }
    }
}
