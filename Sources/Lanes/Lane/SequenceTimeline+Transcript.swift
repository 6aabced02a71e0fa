import Corpus
import JSON
import Reports

extension SequenceTimeline {
    /// The sequence picture of a transcript: the case's client (and each other caller) and the
    /// server as lifelines; per step a request and its answer, a local write, a server change,
    /// a fault, or a state check; the postconditions last. Where `observed` holds what the system
    /// under test sent or answered at a step, the arrow draws that, with the golden beside it
    /// where they differ.
    /// - Parameters:
    ///   - transcript: the case.
    ///   - observed: what was sent or answered, by step number.
    public init(transcript: Transcript, observed: [Int: CaseResult.Observed] = [:]) {
        let context = transcript.context
        let own = Self.clientName(user: context.userID, client: context.clientID, own: true)
        var names = [own]
        for step in transcript.steps {
            guard case .rpc(let exchange) = step.action, let caller = exchange.caller else { continue }
            let name = Self.clientName(user: caller.user, client: caller.client, own: false)
            if !names.contains(name) { names.append(name) }
        }
        self.init(lifelines: names.map { Lifeline(name: $0, role: .client) } + [Lifeline(name: "server", role: .server)])
        let server = names.count
        for step in transcript.steps {
            let n = step.n
            switch step.action {
            case .rpc(let exchange):
                let client =
                    exchange.caller.flatMap { names.firstIndex(of: Self.clientName(user: $0.user, client: $0.client, own: false)) } ?? 0
                let golden = (
                    request: Self.request(exchange.rpc, exchange.request, from: client, to: server, step: n),
                    answer: Self.answer(exchange.rpc, exchange.response, status: exchange.status, from: server, to: client, step: n)
                )
                let seen = observed[n]
                append(
                    Self.live(
                        seen?.request.map { Self.request(exchange.rpc, $0, from: client, to: server, step: n) }, beside: golden.request))
                append(
                    Self.live(
                        seen?.answer.map { Self.answer(exchange.rpc, $0.body, status: $0.status, from: server, to: client, step: n) },
                        beside: golden.answer))
            case .server(let change):
                let label = "\(change.op) \(change.table) \(Self.short(change.pk))"
                let detail = change.columns.map { CanonicalJSON.compact(.object($0)) } ?? ""
                append(SequenceEvent(kind: .serverChange, from: server, label: label, detail: "by \(change.actor) \(detail)", step: n))
            case .reap:
                append(SequenceEvent(kind: .serverChange, from: server, label: "reaper runs", step: n))
            case .local(let write):
                let label = "local \(write.op.rawValue) \(write.table) \(Self.short(write.pk))"
                let detail = "mutation \(write.mutationID) " + CanonicalJSON.compact(.object(write.columns))
                append(SequenceEvent(kind: .localWrite, from: 0, label: label, detail: detail, step: n))
            case .fault(let fault):
                let request = fault.request.map(CanonicalJSON.compact) ?? ""
                switch fault.fault {
                case .dropAck:
                    append(
                        SequenceEvent(
                            kind: .request, from: 0, to: server, label: "\(fault.target.rawValue) (applied)", detail: request, step: n))
                    append(SequenceEvent(kind: .lostAnswer, from: server, to: 0, label: "ack dropped", step: n))
                case .transportError:
                    append(
                        SequenceEvent(
                            kind: .fault, from: 0, to: server, label: "\(fault.target.rawValue): transport error", detail: request, step: n)
                    )
                }
            case .assert(let checks):
                let text = checks.map(\.summary).joined(separator: ", ")
                append(SequenceEvent(kind: .check, from: 0, label: "assert " + text, detail: text, step: n))
            }
        }
        if !transcript.postconditions.isEmpty {
            let text = transcript.postconditions.map(\.summary).joined(separator: ", ")
            append(SequenceEvent(kind: .check, from: 0, label: "postconditions: " + text, detail: text))
        }
    }

    /// The timeline with the kill matrix's kill drawn on the case's client: right after the
    /// request of the step it kills at when the answer is lost, else after the step.
    /// - Parameters:
    ///   - point: the kill point's name, e.g. "after-push-sent".
    ///   - step: the step it kills at.
    ///   - beforeAnswer: whether the kill comes between the step's request and its answer.
    /// - Returns: the timeline.
    func killing(at point: String, step: Int, beforeAnswer: Bool) -> SequenceTimeline {
        var timeline = self
        let ofStep = events.indices.filter { events[$0].step == step }
        guard let first = ofStep.first, let last = ofStep.last else { return self }
        let kill = SequenceEvent(
            kind: .kill, from: 0, label: "SIGKILL \(point)",
            detail: "the driver is killed at \(point) and restarted on the same store, then the case goes on",
            step: step)
        timeline.events.insert(kill, at: beforeAnswer ? first + 1 : last + 1)
        return timeline
    }

    /// The mark of what was actually sent or answered, with the golden beside it where it
    /// differs: its label gains "(golden: …)" and its detail the golden body; the golden mark when
    /// nothing was observed.
    static func live(_ observed: SequenceEvent?, beside golden: SequenceEvent) -> SequenceEvent {
        guard let event = observed, event.detail != golden.detail else { return observed ?? golden }
        let label = event.label == golden.label ? event.label : "\(event.label) (golden: \(golden.label))"
        // Each body gets half of what a mark keeps, so the golden one is never cut off by the live one.
        let half = (SequenceEvent.detailLimit - 20) / 2
        let clip = { (text: String) in text.count > half ? String(text.prefix(half)) + "…" : text }
        return SequenceEvent(
            kind: event.kind, from: event.from, to: event.to, label: label,
            detail: "live: \(clip(event.detail))\ngolden: \(clip(golden.detail))", step: event.step)
    }

    /// A key as labels show it: a long key (a UUID) cut to its last four characters.
    static func short(_ key: String) -> String { key.count > 12 ? "…" + String(key.suffix(4)) : key }

    static func clientName(user: String, client: String, own: Bool) -> String {
        let name = "client …" + String(client.suffix(4))
        return own ? name : name + " (user …" + String(user.suffix(4)) + ")"
    }

    static func request(_ rpc: RPCKind, _ body: JSONValue, from: Int, to: Int, step: Int?) -> SequenceEvent {
        let label: String
        switch rpc {
        case .push:
            let batch = body["batch"]
            let atomic = batch?["atomic"] == .bool(true) ? ", atomic" : ""
            label = "push: \(Quantity.of(batch?["mutations"]?.arrayValue?.count ?? 0, "mutation"))\(atomic)"
        case .pull: label = "pull from " + (body["cursor"].map(CanonicalJSON.compact) ?? "?")
        }
        return SequenceEvent(kind: .request, from: from, to: to, label: label, detail: CanonicalJSON.compact(body), step: step)
    }

    static func answer(_ rpc: RPCKind, _ body: JSONValue, status: Int, from: Int, to: Int, step: Int?) -> SequenceEvent {
        var parts: [String] = status == 200 ? [] : ["HTTP \(status)"]
        if let signal = body["signal"]?["type"]?.stringValue {
            parts.append(signal)
        } else if status == 200 {
            switch rpc {
            case .push:
                parts.append(body["batch"] == nil ? Quantity.of(body["verdicts"]?.arrayValue?.count ?? 0, "verdict") : "batch aborted")
            case .pull:
                parts.append(Quantity.of(body["rows"]?.arrayValue?.count ?? 0, "row"))
                if let tombstones = body["tombstones"]?.arrayValue, !tombstones.isEmpty {
                    parts.append(Quantity.of(tombstones.count, "tombstone"))
                }
                if body["has_more"] == .bool(true) { parts.append("has_more") }
            }
        } else if let code = body["code"]?.stringValue {
            parts.append(code)
        }
        return SequenceEvent(
            kind: .answer, from: from, to: to, label: parts.joined(separator: " · "), detail: CanonicalJSON.compact(body), step: step)
    }
}
