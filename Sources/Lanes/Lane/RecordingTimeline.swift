import Corpus
import JSON
import Reports

/// Builds a recording's sequence picture exchange by exchange, so `accord check` can draw a
/// streamed recording without holding it: one lifeline per client session in the order of its
/// first exchange, the server last, a request and an answer per exchange (a lost answer for
/// status 0). Only the first `SequenceTimeline.eventLimit` events are kept; the rest are counted.
struct RecordingTimeline {
    private var sessions: [RecordedSession] = []
    private var events: [SequenceEvent] = []
    private var omitted = 0
    /// Stands for the server's lifeline until the number of sessions is known.
    private static let server = -1

    /// Draws every exchange of a recording held in memory.
    /// - Parameter exchanges: the exchanges, in recording order.
    init(exchanges: [RecordedExchange] = []) {
        for exchange in exchanges { add(exchange) }
    }

    /// Adds a recording line's exchange; the header is ignored.
    /// - Parameter item: the item read.
    mutating func observe(_ item: RecordingReader.Item) {
        if case .exchange(let exchange) = item { add(exchange) }
    }

    /// Adds one exchange: its request and its answer. Replayed, `observed` holds the request that
    /// went out and the answer that came back (bindings applied): each is drawn in place of the
    /// recorded one, the recorded beside it where they differ (`SequenceTimeline.live`). An
    /// exchange recorded without an answer (status 0) is drawn as recorded.
    /// - Parameters:
    ///   - exchange: the exchange.
    ///   - observed: what was sent and answered when it was replayed.
    mutating func add(_ exchange: RecordedExchange, observed: CaseResult.Observed? = nil) {
        guard events.count + 2 <= SequenceTimeline.eventLimit else {
            omitted += 2
            return
        }
        let session = RecordedSession(of: exchange)
        let client = sessions.firstIndex(of: session) ?? sessions.count
        if client == sessions.count { sessions.append(session) }
        let n = exchange.number
        let seen = exchange.status == 0 ? nil : observed
        if let rpc = RPCKind(rawValue: exchange.rpc) {
            let recorded = SequenceTimeline.request(rpc, exchange.request, from: client, to: Self.server, step: n)
            events.append(
                SequenceTimeline.live(
                    seen?.request.map { SequenceTimeline.request(rpc, $0, from: client, to: Self.server, step: n) }, beside: recorded))
        } else {
            let label = "\(exchange.method) \(exchange.path.split(separator: "?").first.map(String.init) ?? exchange.path)"
            events.append(SequenceEvent(kind: .request, from: client, to: Self.server, label: label, detail: exchange.path, step: n))
        }
        if exchange.status == 0 {
            events.append(SequenceEvent(kind: .lostAnswer, from: Self.server, to: client, label: "no answer (status 0)", step: n))
        } else if let rpc = RPCKind(rawValue: exchange.rpc) {
            let recorded = SequenceTimeline.answer(rpc, exchange.response, status: exchange.status, from: Self.server, to: client, step: n)
            let live = seen?.answer.map {
                SequenceTimeline.answer(rpc, $0.body, status: $0.status, from: Self.server, to: client, step: n)
            }
            events.append(SequenceTimeline.live(live, beside: recorded))
        } else {
            events.append(
                SequenceEvent(
                    kind: .answer, from: Self.server, to: client, label: "HTTP \(exchange.status)",
                    detail: CanonicalJSON.compact(exchange.response), step: n))
        }
    }

    /// The timeline drawn so far.
    var timeline: SequenceTimeline {
        let labels = sessions.map(\.shortLabel)
        let names = sessions.enumerated().map { index, session in
            labels.filter { $0 == labels[index] }.count > 1 ? session.description : labels[index]
        }
        let server = sessions.count
        var lines = names.map { SequenceTimeline.Lifeline(name: $0, role: .client) }
        lines.append(SequenceTimeline.Lifeline(name: "server", role: .server))
        let resolved = events.map { event in
            var event = event
            if event.from == Self.server { event.from = server }
            if event.to == Self.server { event.to = server }
            return event
        }
        return SequenceTimeline(lifelines: lines, events: resolved, omitted: omitted)
    }
}
