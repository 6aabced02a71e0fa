import JSON

/// One per-mutation verdict.
public enum Verdict: Sendable, Hashable {
    /// The mutation took effect; `serverRow` is given when transforms ran.
    case applied(mutationID: String, serverRow: JSONObject?)
    /// The mutation was refused; `serverRow` is the row to revert to (nil: delete locally).
    case rejected(mutationID: String, reason: RejectionReason, serverRow: JSONObject?)

    /// The mutation the verdict answers.
    public var mutationID: String {
        switch self {
        case .applied(let id, _), .rejected(let id, _, _): id
        }
    }

    /// The verdict's kind.
    public var kind: VerdictKind {
        if case .applied = self { return .applied }
        return .rejected
    }

    /// Reads a verdict strictly (common.schema.json#/$defs/verdict).
    /// - Parameters:
    ///   - value: the verdict object.
    ///   - pointer: where it sits.
    /// - Returns: the verdict.
    /// - Throws: `WireError` (`.unknownVerdictKind`, `.unknownVerdictReason`, or shape problems).
    public static func read(_ value: JSONValue, at pointer: JSONPointer) throws(WireError) -> Verdict {
        var reader = try ObjectReader(value, at: pointer, malformed: .malformedPushResponse)
        let kind = try VerdictKind.read(
            try reader.required("verdict"), at: pointer.appending("verdict"), unknown: .unknownVerdictKind,
            malformed: .malformedPushResponse, what: "verdict kind")
        let id = try reader.uuid("mutation_id")
        let verdict: Verdict
        switch kind {
        case .applied:
            verdict = .applied(mutationID: id, serverRow: try reader.optionalColumns("server_row"))
        case .rejected:
            let reason = try RejectionReason.read(
                try reader.required("reason"), at: pointer.appending("reason"), unknown: .unknownVerdictReason,
                malformed: .malformedPushResponse, what: "rejection reason")
            guard reader.has("server_row") else {
                throw WireError(.malformedPushResponse, at: pointer, "missing required key \"server_row\"")
            }
            verdict = .rejected(mutationID: id, reason: reason, serverRow: try reader.optionalColumns("server_row", allowNull: true))
        }
        try reader.finish()
        return verdict
    }

    /// The wire form.
    public var json: JSONValue {
        switch self {
        case .applied(let id, let row):
            var object: JSONObject = ["mutation_id": .string(id)]
            if let row { object["server_row"] = .object(row) }
            object["verdict"] = "applied"
            return .object(object)
        case .rejected(let id, let reason, let row):
            return [
                "mutation_id": .string(id), "reason": .string(reason.rawValue), "server_row": row.map { .object($0) } ?? .null,
                "verdict": "rejected",
            ]
        }
    }
}
