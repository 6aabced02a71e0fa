import Checks
import Corpus
import JSON
import KizunaWire
import Reports
import ServerContract

extension KizunaSync.ServerPlay {
    mutating func play(_ step: Step, name: String, on target: any KizunaSync.ServerTarget) async {
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
                let (sent, substitutions) = bindings.translate(exchange.request)
                let reply = try await call(exchange.rpc, sent, as: caller, on: target)
                answers[step.n] = reply
                let judgement = judge(step, exchange: exchange, sent: sent, substitutions: substitutions, reply: reply)
                var result = CaseResult(name: name, classname: classname, outcome: judgement.outcome, note: judgement.note)
                result.observed = CaseResult.Observed(request: sent, answer: .init(status: reply.status, body: reply.body))
                cases.append(result)
            case .fault(let fault) where fault.fault == .dropAck:
                guard let request = fault.request else { return }
                let (sent, _) = bindings.translate(request)
                let reply = try await call(fault.target, sent, as: identity, on: target)
                answers[step.n] = reply
                let outcome: CaseOutcome =
                    reply.status == 200
                    ? .passed
                    : .failed([
                        Failure(
                            ruleID: "AC-GOLDEN", message: "step \(step.n) drop-ack: the server refused the request (HTTP \(reply.status))",
                            body: "actual: " + CanonicalJSON.compact(reply.body))
                    ])
                cases.append(CaseResult(name: name, classname: classname, outcome: outcome, note: "request applied, answer discarded"))
            case .fault, .local, .assert:
                // Not server-checked (`Step.isServerChecked`): counted by the caller, never played.
                return
            }
        } catch {
            stop(error, name: name)
        }
    }

    func call(_ rpc: RPCKind, _ body: JSONValue, as caller: Identity, on target: any KizunaSync.ServerTarget) async throws(TargetError)
        -> RPCReply
    {
        switch rpc {
        case .pull: try await target.pull(body, as: caller)
        case .push: try await target.push(body, as: caller)
        }
    }

    /// Learns this answer's server-made values (unless the step does not apply to the target),
    /// then judges the live exchange against the golden one translated through the bindings.
    mutating func judge(
        _ step: Step, exchange: RPCExchange, sent: JSONValue, substitutions: [Bindings.Substitution], reply: RPCReply
    ) -> Judgement {
        let label = "step \(step.n) \(step.label)"
        let notApplicable = notApplicable(step)
        var learning = Bindings.Learning()
        if notApplicable == nil && exchange.isAnswer && (200..<300).contains(reply.status) {
            learning = bindings.learn(golden: exchange.response, live: reply.body, at: label)
        }
        let judged = ExchangeJudge.Exchange(
            reference: ReferenceAnswer(rpc: exchange.rpc, status: exchange.status, body: exchange.response, noun: "golden"), sent: sent,
            substitutions: substitutions, reply: reply, learning: learning,
            translated: bindings.translate(exchange.response, answeredBy: reply.body),
            notApplicable: notApplicable, label: label, location: StepLocation(number: step.n, label: step.label),
            client: exchange.caller?.client ?? transcript.context.clientID)
        let judgement = ExchangeJudge.judge(judged, checker: &checker, required: requiredTier)
        if let tier = judgement.tier { worstTier = max(worstTier ?? .pass, tier) }
        return judgement
    }
}

extension Step {
    /// Whether the server lane checks this step: server changes, reaps, RPCs and drop-ack faults
    /// (the request reaches the server). Local writes, assertions on client state and transport
    /// faults whose request never reaches the server belong to the client lane.
    var isServerChecked: Bool {
        switch action {
        case .server, .reap, .rpc: true
        case .fault(let fault): fault.fault == .dropAck && fault.request != nil
        case .local, .assert: false
        }
    }
}
