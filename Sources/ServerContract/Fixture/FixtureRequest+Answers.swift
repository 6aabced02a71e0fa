import JSON
import KizunaWire

extension FixtureRequest {
    /// The answer to `GET /accord/fixtures/capabilities`:
    /// `{"clock": "logical"|"wall", "seqs": "at-write"|"at-commit", "numbering": "dense"|"gapped",
    /// "no_op_writes"?: "stamped"|"unstamped"}` (the last only when unstamped).
    /// - Parameter capabilities: the target's capabilities.
    /// - Returns: the body.
    public static func body(capabilities: TargetCapabilities) -> JSONValue {
        var body: JSONObject = [
            "clock": .string(capabilities.clock.rawValue), "seqs": .string(capabilities.seqs.rawValue),
            "numbering": .string(capabilities.numbering.rawValue),
        ]
        if capabilities.noOpWrites == .unstamped { body["no_op_writes"] = .string(capabilities.noOpWrites.rawValue) }
        return .object(body)
    }

    /// The answer to a successful seed: `{"base": "<seq>", "history": ["<seq>"|null, …], "seeded_at"?: "<RFC 3339 UTC>"}`.
    /// - Returns: the body.
    public static func body(receipt: SeedReceipt) -> JSONValue {
        var members: JSONObject = [
            "base": .string(receipt.base.text),
            "history": .array(receipt.history.map { $0.map { .string($0.text) } ?? .null }),
        ]
        if let seededAt = receipt.seededAt { members.append("seeded_at", .string(seededAt.text)) }
        return .object(members)
    }

    /// Reads the answer to a capabilities call, as a client of the endpoint: 404, 405 or 501 (a
    /// fixture endpoint that predates the call: no such path, only POST allowed, not implemented)
    /// mean nothing is declared (`TargetCapabilities.undeclared`), and so does a `numbering` left
    /// out of a 200 answer.
    /// - Returns: the capabilities.
    /// - Throws: `TargetError` for another status or a body that breaks the shape.
    public static func capabilities(status: Int, body: [UInt8]) throws(TargetError) -> TargetCapabilities {
        if [404, 405, 501].contains(status) { return .undeclared }
        guard status == 200 else { throw targetError(status: status, body: body) ?? .refused("HTTP \(status)") }
        let what = "the capabilities answer"
        do throws(WireError) {
            var reader = try ObjectReader(try parsed(body, what), at: .root, malformed: .json)
            let clockText = try reader.string("clock")
            let seqsText = try reader.string("seqs")
            let numberingText = try reader.optionalString("numbering") ?? TargetCapabilities.Numbering.gapped.rawValue
            let noOpText = try reader.optionalString("no_op_writes") ?? TargetCapabilities.NoOpWrites.stamped.rawValue
            try reader.finish()
            guard let clock = TargetCapabilities.Clock(rawValue: clockText) else {
                throw WireError(.json, at: JSONPointer(tokens: ["clock"]), "expected logical|wall, found \"\(clockText)\"")
            }
            guard let seqs = TargetCapabilities.SeqStamping(rawValue: seqsText) else {
                throw WireError(.json, at: JSONPointer(tokens: ["seqs"]), "expected at-write|at-commit, found \"\(seqsText)\"")
            }
            guard let numbering = TargetCapabilities.Numbering(rawValue: numberingText) else {
                throw WireError(.json, at: JSONPointer(tokens: ["numbering"]), "expected dense|gapped, found \"\(numberingText)\"")
            }
            guard let noOpWrites = TargetCapabilities.NoOpWrites(rawValue: noOpText) else {
                throw WireError(.json, at: JSONPointer(tokens: ["no_op_writes"]), "expected stamped|unstamped, found \"\(noOpText)\"")
            }
            return TargetCapabilities(clock: clock, seqs: seqs, numbering: numbering, noOpWrites: noOpWrites)
        } catch {
            throw .refused("\(what): \(error)")
        }
    }

    /// Reads the answer to a seed call, as a client of the endpoint: 204 means the server
    /// numbers as the seed asks (`SeedReceipt.asSeeded`), 200 carries the server's receipt.
    /// - Parameters:
    ///   - status: the HTTP status.
    ///   - body: the body.
    ///   - seed: the seed sent.
    /// - Returns: the receipt.
    /// - Throws: `TargetError` for a refusal or a body that breaks the shape.
    public static func receipt(status: Int, body: [UInt8], for seed: Seed) throws(TargetError) -> SeedReceipt {
        if status == 204 { return .asSeeded(seed) }
        guard status == 200 else { throw targetError(status: status, body: body) ?? .refused("HTTP \(status)") }
        let what = "the seed answer"
        do throws(WireError) {
            var reader = try ObjectReader(try parsed(body, what), at: .root, malformed: .json)
            let baseText = try reader.string("base")
            guard let base = SequenceNumber(baseText) else {
                throw WireError(.json, at: JSONPointer(tokens: ["base"]), "base is a decimal seq string, found \"\(baseText)\"")
            }
            let entries = try reader.array("history")
            let seededText = try reader.optionalString("seeded_at")
            try reader.finish()
            var seededAt: UTCTimestamp?
            if let seededText {
                guard let time = UTCTimestamp(seededText) else {
                    throw WireError(
                        .json, at: JSONPointer(tokens: ["seeded_at"]), "expected an RFC 3339 time in UTC, found \"\(seededText)\"")
                }
                seededAt = time
            }
            var history: [SequenceNumber?] = []
            for (index, entry) in entries.enumerated() {
                switch entry {
                case .null: history.append(nil)
                case .string(let text) where SequenceNumber(text) != nil: history.append(SequenceNumber(text))
                default:
                    throw WireError(.json, at: JSONPointer(tokens: ["history", String(index)]), "expected a seq string or null")
                }
            }
            guard history.count == seed.history.count else {
                throw WireError(
                    .json, at: JSONPointer(tokens: ["history"]),
                    "\(history.count) entries for a seed with \(seed.history.count) history changes")
            }
            return SeedReceipt(base: base, history: history, seededAt: seededAt)
        } catch {
            throw .refused("\(what): \(error)")
        }
    }

    private static func parsed(_ body: [UInt8], _ what: String) throws(WireError) -> JSONValue {
        do throws(JSONParseError) {
            return try JSONParser.parse(body)
        } catch {
            throw WireError(.json, at: .root, "\(what) is not JSON: \(error)")
        }
    }
}
