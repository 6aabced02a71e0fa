import Checks
import Corpus
import KizunaWire
import Reports
import ServerContract

extension CasePlay {
    mutating func play(_ step: Step, name: String, on target: any ServerTarget) async {
        do throws(TargetError) {
            try await target.setStep(step.n)
            switch step.action {
            case .server(let change):
                let fixture: FixtureChange =
                    change.op == "delete"
                    ? .delete(table: change.table, pk: change.pk, actor: change.actor)
                    : .upsert(
                        table: change.table, pk: change.pk, columns: change.columns ?? JSONObject(), actor: change.actor, hlc: change.hlc)
                let held = scenario.held.first { $0.step == step.n }?.transaction
                try await target.apply(fixture, heldIn: held)
                let note = held.map { " (held in \($0))" } ?? ""
                cases.append(CaseResult(name: name, classname: classname, outcome: .passed, note: "applied\(note)"))
            case .reap:
                try await target.apply(.reap, heldIn: nil)
                cases.append(CaseResult(name: name, classname: classname, outcome: .passed, note: "reaped"))
            case .rpc(let exchange):
                let caller = exchange.caller.map { Identity(user: $0.user, session: $0.client) } ?? identity
                let reply = try await call(exchange.rpc, exchange.request, as: caller, on: target)
                cases.append(judge(step, name: name, exchange: exchange, reply: reply))
            case .fault(let fault) where fault.fault == .dropAck:
                guard let request = fault.request else { return }
                let reply = try await call(fault.target, request, as: identity, on: target)
                let outcome: CaseOutcome =
                    reply.status == 200
                    ? .passed
                    : .failed([
                        Failure(
                            ruleID: "AC-GOLDEN", message: "step \(step.n) drop-ack: the server refused the request (HTTP \(reply.status))",
                            body: "actual: " + CanonicalJSON.compact(reply.body))
                    ])
                cases.append(CaseResult(name: name, classname: classname, outcome: outcome, note: "request applied, answer discarded"))
            case .fault:
                cases.append(
                    CaseResult(name: name, classname: classname, outcome: .skipped("transport error: the request never reaches the server"))
                )
            case .local, .assert:
                cases.append(
                    CaseResult(
                        name: name, classname: classname,
                        outcome: .skipped("client-side step: checked in the client lane (accord run --client)")))
            }
        } catch {
            stop(error, name: name)
        }
    }

    func call(_ rpc: RPCKind, _ body: JSONValue, as caller: Identity, on target: any ServerTarget) async throws(TargetError) -> RPCReply {
        switch rpc {
        case .pull: try await target.pull(body, as: caller)
        case .push: try await target.push(body, as: caller)
        }
    }

    /// Compares a live reply with the golden response and runs the rules on the live exchange.
    mutating func judge(_ step: Step, name: String, exchange: RPCExchange, reply: RPCReply) -> CaseResult {
        let location = StepLocation(number: step.n, label: step.label)
        var failures: [Failure] = []
        if !exchange.isAnswer {
            let expectedCode = exchange.response["code"]
            if reply.status == exchange.status && reply.body["code"] == expectedCode {
                return CaseResult(
                    name: name, classname: classname, outcome: .passed,
                    note: "error reply \(reply.status) \(expectedCode.map(CanonicalJSON.compact) ?? "")")
            }
            worstTier = .diverged
            failures.append(
                Failure(
                    ruleID: "AC-GOLDEN",
                    message:
                        "step \(step.n) \(step.label): AC-GOLDEN expected HTTP \(exchange.status) with code \(expectedCode.map(CanonicalJSON.compact) ?? "null"), got HTTP \(reply.status) with code \(reply.body["code"].map(CanonicalJSON.compact) ?? "null")",
                    body: "expected: " + CanonicalJSON.compact(exchange.response) + "\nactual: " + CanonicalJSON.compact(reply.body)))
            return CaseResult(name: name, classname: classname, outcome: .failed(failures))
        }
        if reply.status != 200 {
            worstTier = .diverged
            failures.append(
                Failure(
                    ruleID: "AC-GOLDEN",
                    message: "step \(step.n) \(step.label): AC-GOLDEN the server answered HTTP \(reply.status), the golden response is 200",
                    body: "expected: " + CanonicalJSON.compact(exchange.response) + "\nactual: " + CanonicalJSON.compact(reply.body)))
            return CaseResult(name: name, classname: classname, outcome: .failed(failures))
        }
        let event = TraceEvent(
            location: location, client: exchange.caller?.client ?? transcript.context.clientID,
            payload: .exchange(exchange.rpc, request: exchange.request, response: reply.body))
        let scope: JSONValue = ["request": exchange.request, "response": reply.body]
        failures += checker.observe(event).map { TranscriptCheck.failure($0, in: scope) }
        let (tier, pointer) = ResponseTier.compare(reply.body, golden: exchange.response)
        worstTier = max(worstTier, tier)
        failures += ResponseTier.failures(
            live: reply.body, reference: exchange.response, tier: tier, pointer: pointer, required: requiredTier,
            label: "step \(step.n) \(step.label)", noun: "golden")
        if !failures.isEmpty {
            return CaseResult(name: name, classname: classname, outcome: .failed(failures), note: "tier \(tier.rawValue)")
        }
        let note =
            tier == .pass
            ? "tier pass: canonical bytes equal" : "tier semantic: equal once seq, cursor, winner_seq and deleted_at are masked"
        return CaseResult(name: name, classname: classname, outcome: .passed, note: note)
    }
}
