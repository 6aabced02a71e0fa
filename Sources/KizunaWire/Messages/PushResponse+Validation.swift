import JSON

/// One way a push response fails to answer its request (I-5 and the abort rules).
public struct PushAnswerViolation: Sendable, Hashable {
    /// The protocol's kind of failure.
    public let kind: WireError.Kind
    /// Where in the response (or request) the problem is.
    public let pointer: JSONPointer
    /// What is wrong.
    public let detail: String
    /// What the request asks for there (for a verdict count, the mutation ids sent), if one value.
    public var expected: JSONValue?
    /// What the response holds there (for a verdict count, the mutation ids answered).
    public var actual: JSONValue?

    /// The violation as a typed error.
    public var error: WireError { WireError(kind, at: pointer, detail) }
}

extension PushResponse {
    /// Every way this response fails to answer `request`: the verdict bijection (one verdict per
    /// mutation, in request order, same ids, no duplicate ids), an abort answering a non-atomic
    /// batch, an offender outside the batch, and a push signal other than RESET_REQUIRED.
    /// - Parameter request: the request this response answers.
    /// - Returns: the violations, in position order; empty when the answer is well-formed.
    public func violations(answering request: PushRequest) -> [PushAnswerViolation] {
        var found: [PushAnswerViolation] = []
        let ids = request.mutations.map(\.mutationID)
        if case .signal = self {
        } else {
            var seen = Set<String>()
            for (position, id) in ids.enumerated() where !seen.insert(id).inserted {
                found.append(
                    PushAnswerViolation(
                        kind: .verdictBijection, pointer: JSONPointer(tokens: ["batch", "mutations", String(position)]),
                        detail: "duplicate mutation_id \(id) in the request breaks the bijection"))
            }
        }
        switch self {
        case .verdicts(let verdicts):
            if verdicts.count != ids.count {
                var violation = PushAnswerViolation(
                    kind: .verdictBijection, pointer: JSONPointer(tokens: ["verdicts"]),
                    detail:
                        "expected \(ids.count) \(ids.count == 1 ? "verdict" : "verdicts"), one per mutation, got \(verdicts.count): mutations sent "
                        + "[\(ids.joined(separator: ", "))], verdicts for [\(verdicts.map(\.mutationID).joined(separator: ", "))]")
                violation.expected = .array(ids.map { .string($0) })
                violation.actual = .array(verdicts.map { .string($0.mutationID) })
                found.append(violation)
            }
            for (position, id) in ids.enumerated() {
                if position < verdicts.count && verdicts[position].mutationID != id {
                    var violation = PushAnswerViolation(
                        kind: .verdictBijection, pointer: JSONPointer(tokens: ["verdicts", String(position), "mutation_id"]),
                        detail: "verdict \(position) answers \(verdicts[position].mutationID), expected \(id) (request order)")
                    violation.expected = .string(id)
                    violation.actual = .string(verdicts[position].mutationID)
                    found.append(violation)
                }
            }
        case .aborted(let abort):
            if !request.atomic {
                found.append(
                    PushAnswerViolation(
                        kind: .malformedPushResponse, pointer: JSONPointer(tokens: ["batch"]),
                        detail: "a batch abort answers a non-atomic batch"))
            }
            if !request.mutations.contains(where: { $0.mutationID == abort.offenderMutationID }) {
                found.append(
                    PushAnswerViolation(
                        kind: .unknownBatchOffender, pointer: JSONPointer(tokens: ["batch", "offender_mutation_id"]),
                        detail: "offender \(abort.offenderMutationID) is not a mutation of the batch"))
            }
        case .signal(let type):
            if type != .resetRequired {
                found.append(
                    PushAnswerViolation(
                        kind: .unknownSignal, pointer: JSONPointer(tokens: ["signal", "type"]),
                        detail: "a push signal is RESET_REQUIRED, found \(type.rawValue)"))
            }
        }
        return found
    }

    /// Validates this response against its request, as a client must before applying it.
    /// - Parameter request: the request this response answers.
    /// - Throws: the first violation as a `WireError`.
    public func validate(answering request: PushRequest) throws(WireError) {
        if let first = violations(answering: request).first { throw first.error }
    }
}
