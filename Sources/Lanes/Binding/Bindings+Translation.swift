import JSON
import KizunaWire

extension Bindings {
    /// Keys whose values are user data: a column that happens to be named `seq` or `cursor` is
    /// never translated.
    public static let dataKeys: Set<String> = ["row", "server_row", "loser_value", "columns", "precondition", "params", "transforms"]

    /// One golden value replaced by its live value.
    public struct Substitution: Sendable, Hashable, CustomStringConvertible {
        /// Where in the body.
        public var pointer: JSONPointer
        /// The golden text.
        public var golden: String
        /// The live text sent or expected instead.
        public var live: String
        /// Where the binding was learned (for a cursor, the binding of its high-water).
        public var origin: BindingOrigin?

        /// "cursor 17→5 at /cursor".
        public var description: String { "\(pointer.tokens.last ?? "") \(golden)→\(live) at \(BindingViolation.show(pointer))" }
    }

    /// A golden body with every bound server-made value replaced by its live value: the request
    /// to send in a golden request's place, or the answer a correct server gives in a golden
    /// answer's place. Only strings under `cursor` (the token the server answered in its place,
    /// else part by part), `seq`, `winner_seq` and `deleted_at` outside user data are replaced; an
    /// unbound value stays as it is.
    /// - Parameter golden: the golden or recorded body.
    /// - Returns: the translated body and the substitutions made.
    public func translate(_ golden: JSONValue) -> (JSONValue, [Substitution]) {
        var substitutions: [Substitution] = []
        let translated = rewrite(golden, key: nil, at: .root, into: &substitutions)
        return (translated, substitutions)
    }

    /// A golden answer translated for comparison with the live answer to the same request: as
    /// `translate(_:)`, and where times are matched by order alone, each tombstone's `deleted_at`
    /// taken from the live tombstone of the same row (learning has checked its order already).
    /// - Parameters:
    ///   - golden: the golden or recorded answer.
    ///   - live: the live answer.
    /// - Returns: the translated answer.
    public func translate(_ golden: JSONValue, answeredBy live: JSONValue) -> JSONValue {
        let translated = translate(golden).0
        guard timeMatching == .order, let tombstones = translated["tombstones"]?.arrayValue,
            let liveTombstones = live["tombstones"]?.arrayValue
        else { return translated }
        var liveTimes: [String: JSONValue] = [:]
        for entry in liveTombstones {
            guard let time = entry["deleted_at"] else { continue }
            liveTimes[CanonicalJSON.compact([entry["table"] ?? .null, entry["pk"] ?? .null])] = time
        }
        let adjusted = tombstones.map { entry -> JSONValue in
            guard entry["deleted_at"] != nil, let time = liveTimes[CanonicalJSON.compact([entry["table"] ?? .null, entry["pk"] ?? .null])]
            else { return entry }
            return entry.replacing(at: JSONPointer(tokens: ["deleted_at"]), with: time)
        }
        return translated.replacing(at: JSONPointer(tokens: ["tombstones"]), with: .array(adjusted))
    }

    private func rewrite(_ value: JSONValue, key: String?, at pointer: JSONPointer, into substitutions: inout [Substitution]) -> JSONValue {
        switch value {
        case .object(let object):
            var rewritten = object
            for index in rewritten.members.indices where !Self.dataKeys.contains(rewritten.members[index].key) {
                let member = rewritten.members[index]
                rewritten.members[index].value = rewrite(
                    member.value, key: member.key, at: pointer.appending(member.key), into: &substitutions)
            }
            return .object(rewritten)
        case .array(let elements):
            return .array(
                elements.enumerated().map { index, element in rewrite(element, key: key, at: pointer.appending(index), into: &substitutions)
                })
        case .string(let text):
            guard let key, let (live, origin) = liveValue(for: text, under: key), live != text else { return value }
            substitutions.append(Substitution(pointer: pointer, golden: text, live: live, origin: origin))
            return .string(live)
        default:
            return value
        }
    }

    private func liveValue(for text: String, under key: String) -> (String, BindingOrigin?)? {
        switch key {
        case "seq", "winner_seq":
            guard let seq = SequenceNumber(text) else { return nil }
            guard let entry = seqs.entry(for: seq) else { return provisional[seq].map { ($0.text, BindingOrigin("the seed")) } }
            return (entry.live.text, entry.origin)
        case "deleted_at":
            guard let time = UTCTimestamp(text) else { return nil }
            switch timeMatching {
            case .bijection:
                guard let entry = times.entry(for: time) else { return nil }
                return (entry.live.text, entry.origin)
            case .order:
                return timeOrder.live(for: time).map { ($0.0.text, $0.1) }
            }
        case "cursor":
            if let answered = answeredCursors[text] { return (answered.live, answered.origin) }
            guard let token = try? CursorToken(parsing: text) else { return nil }
            func map(_ seq: SequenceNumber) -> SequenceNumber { seqs.entry(for: seq)?.live ?? provisional[seq] ?? seq }
            guard
                let live = try? CursorToken(
                    start: token.start.map(map), highWater: map(token.highWater), holes: token.holes.map(map))
            else { return nil }
            return (live.description, seqs.entry(for: token.highWater)?.origin)
        default:
            return nil
        }
    }
}
