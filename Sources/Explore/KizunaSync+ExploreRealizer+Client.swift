import AccordDriver
import Corpus
import JSON
import KizunaWire
import ServerContract

extension KizunaSync.ExploreRealizer.Run {
    /// How a driven client's push is answered.
    enum PushAnswer {
        case plain
        /// Applied, and the answer lost (a drop-ack).
        case lost
        /// Applied, and the answer given a verdict for a mutation never sent.
        case broken
    }

    /// The mutation id of the verdict a broken answer adds.
    static let strayMutationID = ExploreIDs.uuid("f9", 1)

    /// Plays one of device 0's actions through the client that drives it.
    mutating func play(_ action: KizunaSync.ExploreAction, through client: any ExploreClient) async throws(TargetError) {
        switch action {
        case .write(_, let mutation):
            try await write(mutation, group: nil, through: client)
        case .atomicWrites(_, let mutations):
            atomicGroups += 1
            for mutation in mutations { try await write(mutation, group: "g\(atomicGroups)", through: client) }
        case .push(_, _, _, let lost):
            _ = try await push(lost ? .lost : .plain, through: client)
        case .brokenAnswer:
            _ = try await push(.broken, through: client)
        case .pull:
            _ = try await pull(failing: false, through: client)
        case .failedPull:
            _ = try await pull(failing: true, through: client)
        case .settlePush:
            // A head that fails for good is charged until it is dead-lettered; the bound only
            // stops a client that never empties its outbox from looping.
            for _ in 0..<200 {
                guard try await push(.plain, through: client) else { return }
            }
        case .settlePull:
            for _ in 0..<500 {
                guard let reply = try await pull(failing: false, through: client) else { return }
                let signal = reply.body["signal"]?["type"]?.stringValue
                if reply.status != 200 || (reply.body["has_more"] != .bool(true) && signal != SignalType.checkpointExpired.rawValue) {
                    return
                }
            }
        case .server, .reap, .observe:
            return
        }
    }

    mutating func write(_ mutation: Mutation, group: String?, through client: any ExploreClient) async throws(TargetError) {
        var step = Self.localStep(mutation)
        if let refused = try await client.write(step, atomicGroup: group) {
            step["expect_error"] = .string(refused)
        } else if let group {
            groupOf[mutation.mutationID] = group
        }
        clientKeys.insert(KizunaSync.RowKey(table: mutation.table, pk: mutation.pk))
        append(step)
    }

    /// Has the client push; false when it sent nothing.
    mutating func push(_ answer: PushAnswer, through client: any ExploreClient) async throws(TargetError) -> Bool {
        try await commit(touching: clientKeys)
        try await reference.setStep(next)
        let reference = self.reference
        let identity = identity(replicas[0])
        let sent = try await client.send(.push) { body throws(TargetError) in
            let reply = try await reference.push(body, as: identity)
            guard reply.status == 200 else { return .reply(reply) }
            switch answer {
            case .plain: return .reply(reply)
            case .lost: return .drop
            case .broken: return .reply(Self.broken(reply))
            }
        }
        guard let sent else { return false }
        callers[next] = .device(0)
        for mutation in sent.request["batch"]?["mutations"]?.arrayValue ?? [] {
            if let id = mutation["mutation_id"]?.stringValue { pushedIDs.insert(id) }
        }
        // A grouped write this push left out may have shaped it (a batch stops at a group).
        exposed.formUnion(groupOf.keys.filter { !pushedIDs.contains($0) })
        switch sent.served {
        case .drop:
            append(["kind": "fault", "fault": "drop-ack", "target": "push", "request": sent.request])
        case .reply(let reply):
            var step: JSONObject = ["kind": "rpc", "rpc": "push", "request": sent.request, "response": reply.body]
            if reply.status != 200 { step["status"] = .number(JSONNumber(reply.status)) }
            if Self.isBroken(reply) { step["expect_error"] = "VERDICT_BIJECTION" }
            if reply.body["signal"]?["type"]?.stringValue == SignalType.resetRequired.rawValue { blocked() }
            append(step)
        }
        return true
    }

    /// Has the client pull one page; the answer, or nil when it sent nothing or the connection failed.
    mutating func pull(failing: Bool, through client: any ExploreClient) async throws(TargetError) -> RPCReply? {
        try await reference.setStep(next)
        let reference = self.reference
        let identity = identity(replicas[0])
        let sent = try await client.send(.pull) { body throws(TargetError) in
            failing ? .drop : .reply(try await reference.pull(body, as: identity))
        }
        guard let sent else { return nil }
        callers[next] = .device(0)
        switch sent.served {
        case .drop:
            append(["kind": "fault", "fault": "transport-error", "target": "pull", "request": sent.request])
            return nil
        case .reply(let reply):
            var step: JSONObject = ["kind": "rpc", "rpc": "pull", "request": sent.request, "response": reply.body]
            if reply.status != 200 { step["status"] = .number(JSONNumber(reply.status)) }
            append(step)
            // The model follows the client's transfers, to know when a reap falls inside one.
            replicas[0].pulled(status: reply.status, body: reply.body)
            if replicas[0].isBlocked { blocked() }
            return reply
        }
    }

    /// A grouped write the client stored and never pushed although a push was sent after it, if
    /// any: the transcript cannot tell the client that plays it that the write is grouped.
    var unpushedGroup: String? { exposed.sorted().first { !pushedIDs.contains($0) } }

    mutating func blocked() {
        unasserted = unasserted ?? "device 1 is soft-blocked (RESET_REQUIRED): what it holds is not judged"
    }

    /// Verdicts with one more, for a mutation never sent; an answer without verdicts as it is.
    static func broken(_ reply: RPCReply) -> RPCReply {
        guard case .array(var verdicts)? = reply.body["verdicts"], let first = verdicts.first else { return reply }
        verdicts.append(first.replacing(at: JSONPointer(tokens: ["mutation_id"]), with: .string(strayMutationID)))
        return RPCReply(status: reply.status, body: reply.body.replacing(at: JSONPointer(tokens: ["verdicts"]), with: .array(verdicts)))
    }

    static func isBroken(_ reply: RPCReply) -> Bool {
        reply.body["verdicts"]?.arrayValue?.contains { $0["mutation_id"]?.stringValue == strayMutationID } ?? false
    }

    /// The closing assert: after the closing phase, the client holds exactly the rows its user's
    /// observer pulled from "0" (the server's rows in its buckets) and an empty outbox. Left out,
    /// saying why, where the protocol does not promise it or the reference client itself does not
    /// hold them (then the scenario proves nothing about another client).
    mutating func assertConverged(_ client: any ExploreClient) async throws(TargetError) {
        guard unasserted == nil else { return }
        guard let observer = observers[scenario.devices[0].user] else {
            unasserted = "no observer of device 1's user pulled at the end"
            return
        }
        let state = try await client.state()
        guard state.outboxDepth == 0 else {
            unasserted =
                "the reference client itself does not hold its user's rows: \(state.outboxDepth) outbox entries after the closing push"
            return
        }
        var keys = Set(observer.rows.keys)
        for (table, rows) in state.rows where scenario.tables.contains(table) {
            for pk in rows.keys { keys.insert(KizunaSync.RowKey(table: table, pk: pk)) }
        }
        var checks: [JSONValue] = []
        for key in keys.sorted() {
            let expected = observer.rows[key]?.row
            let held = state.row(key.table, key.pk)
            guard StateResult.sameRow(held, expected) else {
                unasserted =
                    "the reference client itself does not hold its user's rows: it holds \(key) as \(held.map { CanonicalJSON.compact(.object($0)) } ?? "absent"), the server \(expected.map { CanonicalJSON.compact(.object($0)) } ?? "absent")"
                return
            }
            checks.append([
                "check": "local-row", "table": .string(key.table), "pk": .string(key.pk), "row": expected.map { .object($0) } ?? .null,
            ])
        }
        checks.append(["check": "outbox-depth", "value": 0])
        append(["kind": "assert", "checks": .array(checks)])
    }
}
