import KizunaWire

/// What a transcript's golden answers assume about the server before step 1, read from the
/// golden itself: a value numbered above every seq the case could have stamped by then (the case
/// starts from history, or a later first seq, that it states only in prose), and a cursor with a
/// hole (a change held in an open transaction). A case whose needs its setup does not meet
/// cannot be played fairly: the lane reports it not applicable, naming what is missing.
///
/// The count is an upper bound, so a case that needs no setup is never taken for one that does:
/// every server change and every mutation a request carries (a push, a drop-ack's applied push)
/// counts twice, as an upsert that moves a row to another bucket stamps a tombstone and the row;
/// rejected and replayed mutations, which stamp nothing, count all the same. Exchanges that
/// expect an error or are not 2xx answers (a refused cursor from the future) show nothing.
/// A golden typo numbered too high therefore reads as a need, reported as a skipped case with
/// that reason, never as a pass.
public struct ScenarioNeeds: Sendable, Hashable {
    /// Where the golden shows a need.
    public struct Evidence: Sendable, Hashable, CustomStringConvertible {
        /// The step.
        public var step: Int
        /// The golden value, e.g. `"6~5"`.
        public var value: String
        /// What it shows, e.g. "a cursor with a hole".
        public var shows: String

        /// E.g. `step 3 answers a cursor with a hole, "6~5"`.
        public var description: String { "step \(step) \(shows) \"\(value)\"" }
    }

    /// The first golden value numbered above every seq stamped so far.
    public var numbering: Evidence?
    /// The first golden cursor with a hole.
    public var heldTransaction: Evidence?

    /// Reads the needs of a transcript; a recorded one has none (its world is inferred).
    public init(_ transcript: Transcript) {
        guard !transcript.isRecorded else { return }
        /// The most seqs the case can have stamped so far.
        var bound: UInt64 = 0
        for step in transcript.steps {
            switch step.action {
            case .server:
                bound += 2
            case .fault(let fault) where fault.fault == .dropAck:
                bound += 2 * UInt64(fault.request.flatMap { try? PushRequest(json: $0) }?.mutations.count ?? 0)
            case .rpc(let exchange) where exchange.expectError != nil || !exchange.isAnswer:
                continue
            case .rpc(let exchange) where exchange.rpc == .push:
                bound += 2 * UInt64((try? PushRequest(json: exchange.request))?.mutations.count ?? 0)
            case .rpc(let exchange):
                let made = SequenceNumber(bound)
                let above = "above the \(bound) seqs the case could have stamped before it:"
                if numbering == nil, let request = try? PullRequest(json: exchange.request), request.cursor.highWater > made {
                    numbering = Evidence(step: step.n, value: request.cursor.description, shows: "pulls from a cursor " + above)
                }
                guard let response = try? PullResponse(json: exchange.response) else { continue }
                if heldTransaction == nil, !response.cursor.holes.isEmpty {
                    heldTransaction = Evidence(step: step.n, value: response.cursor.description, shows: "answers a cursor with a hole,")
                }
                let highest = (response.rows.map(\.seq) + response.tombstones.map(\.seq) + [response.cursor.highWater]).max() ?? .zero
                if numbering == nil, highest > made {
                    numbering = Evidence(step: step.n, value: highest.description, shows: "answers a seq " + above)
                }
            default:
                continue
            }
        }
    }

    /// What `scenario` leaves unmet, one phrase each; empty when it meets every need.
    public func unmet(by scenario: Scenarios.Scenario) -> [String] {
        var missing: [String] = []
        if let numbering, scenario.nextSeq == nil, scenario.history.isEmpty {
            missing.append("history or a first seq before step 1 (\(numbering))")
        }
        if let heldTransaction, scenario.held.isEmpty {
            missing.append("a transaction held open (\(heldTransaction))")
        }
        return missing
    }
}
