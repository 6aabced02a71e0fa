import JSON
import KizunaWire
import Lanes

/// How a `RenumberingServer` turns the seqs of the server it wraps into the ones it answers.
public enum Renumbering: Sendable, Hashable {
    /// Every seq and cursor part moves up by this much; "0" stays "0" (a correct server that
    /// numbers differently).
    case offset(Int64)
    /// Seqs first answered by the first pull move up by 10, later ones by 2, so a later page
    /// carries seqs below an earlier page's (order broken).
    case laterPullsBelowEarlier
    /// Every pull after the first answers the first pull's cursor (two checkpoints, one token).
    case collapseLaterCursors
}

/// The seq rewriting a `RenumberingServer` does, as a value: one map from the wrapped server's
/// seqs to the answered ones and back, built as seqs appear.
public struct SeqMap: Sendable {
    let rule: Renumbering
    var forward: [Int64: Int64] = [0: 0]
    var backward: [Int64: Int64] = [0: 0]
    var pulls = 0
    var firstCursor: String?

    /// A map that knows only "0".
    /// - Parameter rule: how seqs are renumbered.
    public init(_ rule: Renumbering) { self.rule = rule }

    /// The answered value of an inner seq, assigning one on first sight.
    public mutating func out(_ inner: Int64) -> Int64 {
        if let known = forward[inner] { return known }
        let delta: Int64
        switch rule {
        case .offset(let by): delta = by
        case .laterPullsBelowEarlier: delta = pulls <= 1 ? 10 : 2
        case .collapseLaterCursors: delta = 0
        }
        forward[inner] = inner + delta
        backward[inner + delta] = inner
        return inner + delta
    }

    /// The inner value of an answered seq (a request carries answered values).
    public func back(_ outer: Int64) -> Int64 {
        if let known = backward[outer] { return known }
        if case .offset(let by) = rule, outer > by { return outer - by }
        return outer
    }

    /// How far the base a seed reports moves: the offset (the wrapped server's "0" stays "0" as a
    /// cursor, but its stream now starts above the offset).
    public var baseShift: Int64 {
        if case .offset(let by) = rule { return by }
        return 0
    }

    /// Marks a pull answer, for the rules that depend on which pull it is.
    public mutating func countPull() { pulls += 1 }

    /// The answered cursor of a pull (a collapsing map answers the first one again).
    public mutating func cursor(_ answered: String) -> String {
        guard case .collapseLaterCursors = rule else { return answered }
        if let firstCursor { return firstCursor }
        firstCursor = answered
        return answered
    }

    /// Rewrites every seq and cursor part outside user data.
    public mutating func rewrite(_ value: JSONValue, outward: Bool, key: String? = nil) -> JSONValue {
        switch value {
        case .object(let object):
            var rewritten = object
            for index in rewritten.members.indices where !Bindings.dataKeys.contains(rewritten.members[index].key) {
                let member = rewritten.members[index]
                rewritten.members[index].value = rewrite(member.value, outward: outward, key: member.key)
            }
            return .object(rewritten)
        case .array(let elements):
            return .array(elements.map { rewrite($0, outward: outward, key: key) })
        case .string(let text):
            switch key {
            case "seq", "winner_seq":
                guard let number = Int64(text) else { return value }
                return .string(String(outward ? out(number) : back(number)))
            case "cursor":
                guard let token = try? CursorToken(parsing: text) else { return value }
                func map(_ seq: SequenceNumber) -> SequenceNumber {
                    guard let number = Int64(seq.text) else { return seq }
                    return SequenceNumber(UInt64(max(0, outward ? out(number) : back(number))))
                }
                guard
                    let mapped = try? CursorToken(start: token.start.map(map), highWater: map(token.highWater), holes: token.holes.map(map))
                else { return value }
                return .string(mapped.description)
            default:
                return value
            }
        default:
            return value
        }
    }
}
