import JSON

/// A server-made value that cannot be bound: the golden-to-live map would stop being a
/// bijection that keeps order, or a live time is not one the protocol allows. A violation is a
/// divergence of the step that answered the value (rule AC-BINDING); its message names both
/// steps when an earlier binding is involved.
public struct BindingViolation: Sendable, Hashable, CustomStringConvertible {
    /// Where in this step's response the offending live value sits.
    public var pointer: JSONPointer
    /// The golden value at that place.
    public var golden: String
    /// The live value at that place.
    public var live: String
    /// The sentence that explains it, naming the earlier step when one is involved.
    public var message: String

    /// The sentence.
    public var description: String { message }

    static func conflict<Value>(
        _ conflict: BindingTable<Value>.Conflict, kind: Bindings.Kind, golden: Value, live: Value, origin: BindingOrigin
    ) -> BindingViolation {
        let here = "\(origin.label) at \(show(origin.pointer))"
        let message: String
        switch conflict {
        case .goldenBoundElsewhere(let earlier):
            message =
                "golden \(kind.noun) \(quote(golden)) was answered with \(quote(earlier.live)) at \(earlier.origin), and with \(quote(live)) at \(here): one golden value, two live ones"
        case .liveAnswersAnother(let earlier):
            message =
                "live \(kind.noun) \(quote(live)) answers golden \(quote(earlier.golden)) at \(earlier.origin) and golden \(quote(golden)) at \(here): two golden values, one live one"
        case .orderInverted(let neighbour):
            let goldenOrder = golden < neighbour.golden ? "<" : ">"
            let liveOrder = live < neighbour.live ? "<" : ">"
            message =
                "order inverted: golden \(kind.noun) \(quote(golden)) \(goldenOrder) \(quote(neighbour.golden)), but live \(quote(live)) at \(here) \(liveOrder) \(quote(neighbour.live)) at \(neighbour.origin)"
        }
        return BindingViolation(
            pointer: origin.pointer ?? .root, golden: golden.description, live: live.description, message: message)
    }

    static func show(_ pointer: JSONPointer?) -> String {
        guard let pointer, !pointer.tokens.isEmpty else { return "/" }
        return pointer.description
    }

    static func quote(_ value: some CustomStringConvertible) -> String { "\"\(value)\"" }
}
