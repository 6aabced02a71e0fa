import JSON

/// The single outcome of an atomic batch that aborted (D-atomic-batch-abort).
public struct BatchAbort: Sendable, Hashable {
    /// The mutation whose rejection reverted the batch.
    public var offenderMutationID: String
    /// Why the offender was refused.
    public var reason: RejectionReason
    /// The offender's row to revert to, or nil.
    public var serverRow: JSONObject?

    /// Makes an abort outcome.
    public init(offenderMutationID: String, reason: RejectionReason, serverRow: JSONObject?) {
        self.offenderMutationID = offenderMutationID
        self.reason = reason
        self.serverRow = serverRow
    }
}

/// The body of a push response: exactly one of three arms.
public enum PushResponse: WireMessage {
    /// One verdict per mutation, in request order.
    case verdicts([Verdict])
    /// An atomic batch aborted, naming its offender.
    case aborted(BatchAbort)
    /// The push was refused before any mutation ran.
    case signal(SignalType)

    /// Reads a push response strictly (push-response.schema.json).
    /// - Throws: `WireError` naming the protocol code and the offending value's pointer.
    public init(json: JSONValue, at pointer: JSONPointer) throws(WireError) {
        var reader = try ObjectReader(json, at: pointer, malformed: .malformedPushResponse)
        let arms = ["verdicts", "batch", "signal"].filter { reader.has($0) }
        guard arms.count == 1, let arm = arms.first else {
            throw WireError(
                .malformedPushResponse, at: pointer,
                arms.isEmpty
                    ? "a push response has one of verdicts, batch or signal"
                    : "a push response has exactly one arm, found \(arms.joined(separator: " and "))")
        }
        switch arm {
        case "verdicts":
            var verdicts: [Verdict] = []
            for (index, element) in try reader.array("verdicts").enumerated() {
                verdicts.append(try Verdict.read(element, at: pointer.appending("verdicts").appending(index)))
            }
            self = .verdicts(verdicts)
        case "batch":
            let at = pointer.appending("batch")
            var batch = try ObjectReader(try reader.required("batch"), at: at, malformed: .malformedPushResponse)
            let outcome = try batch.string("outcome")
            guard outcome == "aborted" else {
                throw WireError(
                    .malformedPushResponse, at: at.appending("outcome"), "batch outcome must be \"aborted\", found \"\(outcome)\"")
            }
            let offender = try batch.uuid("offender_mutation_id")
            let reason = try RejectionReason.read(
                try batch.required("reason"), at: at.appending("reason"), unknown: .unknownVerdictReason,
                malformed: .malformedPushResponse, what: "rejection reason")
            guard batch.has("server_row") else { throw WireError(.malformedPushResponse, at: at, "missing required key \"server_row\"") }
            let row = try batch.optionalColumns("server_row", allowNull: true)
            try batch.finish()
            self = .aborted(BatchAbort(offenderMutationID: offender, reason: reason, serverRow: row))
        default:
            let at = pointer.appending("signal")
            guard let type = try SignalField.read(try reader.required("signal"), at: at, malformed: .malformedPushResponse) else {
                throw WireError(.malformedPushResponse, at: at, "a push signal arm carries a signal object, found null")
            }
            self = .signal(type)
        }
        try reader.finish()
    }

    /// The wire form.
    public var json: JSONValue {
        switch self {
        case .verdicts(let verdicts): ["verdicts": .array(verdicts.map(\.json))]
        case .aborted(let abort):
            [
                "batch": [
                    "offender_mutation_id": .string(abort.offenderMutationID), "outcome": "aborted",
                    "reason": .string(abort.reason.rawValue), "server_row": abort.serverRow.map { .object($0) } ?? .null,
                ]
            ]
        case .signal(let type): ["signal": ["type": .string(type.rawValue)]]
        }
    }
}
