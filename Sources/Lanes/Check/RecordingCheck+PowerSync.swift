import Capture
import Checks
import Corpus
import Harness
import JSON
import PowerSyncWire
import Reports

extension RecordingCheck {
    /// Checks an exchange on one of PowerSync's routes through the PS rules: a sync stream as its
    /// opening, one event per recorded NDJSON line and its end; a finding names the exchange,
    /// its NDJSON line and a pointer into that line (or into the request or response).
    /// - Returns: false when the exchange is not on a PowerSync route and the header does not say
    ///   powersync (KizunaSync's rules take it).
    mutating func observePowerSync(_ exchange: RecordedExchange) -> Bool {
        let step: PowerSync.Step
        switch exchange.powerSyncStep {
        case .notPowerSync:
            // A recording whose header says powersync is read with the PowerSync rules only.
            guard header?.protocolName == CorpusProfile.powerSync.rawValue else { return false }
            let reason =
                "not one of PowerSync's routes (\(exchange.method) \(exchange.path)): the recording's header says powersync, so it is recorded, not judged"
            record(.skipped(reason), name: "exchange \(exchange.number) \(exchange.rpc)", seconds: 0)
            return true
        case .notJudged(let route, let reason):
            sawPowerSync = true
            record(.skipped(reason), name: "exchange \(exchange.number) \(route.rawValue)", seconds: 0)
            return true
        case .step(let recorded): step = recorded
        case .fixture(let fixture, let accepted):
            sawPowerSync = true
            let reason =
                accepted
                ? "source-side fixture call (\(fixture.rawValue)): not an exchange the PS rules judge; the server lane performs it when it replays the recording (accord run --server)"
                : "fixture call (\(fixture.rawValue)) refused with HTTP \(exchange.status): the service's state did not change"
            record(.skipped(reason), name: "exchange \(exchange.number) fixture \(fixture.rawValue)", seconds: 0)
            return true
        }
        sawPowerSync = true
        let started = ContinuousClock.now
        var findings: [Finding] = []
        for var event in PowerSync.Trace.Event.events(of: [step]) {
            event.location.unit = .exchange
            event.location.line = exchange.line
            findings += powerSync.observe(event)
        }
        let outcome: CaseOutcome
        if findings.isEmpty {
            outcome = .passed
        } else {
            outcome = .failed(findings.map { TranscriptCheck.failure($0, in: Self.scope(of: $0, in: exchange)) })
        }
        var note: String?
        if case .syncStream(_, let lines) = step.action { note = UnreadNote.note(for: lines) }
        record(outcome, name: "exchange \(exchange.number) \(step.label)", seconds: RunClock.seconds(since: started), note: note)
        return true
    }

    /// The JSON a finding's pointer is relative to: its NDJSON line, or the exchange's bodies.
    private static func scope(of finding: Finding, in exchange: RecordedExchange) -> JSONValue {
        if let line = finding.location?.streamLine, let lines = exchange.response.arrayValue, lines.indices.contains(line - 1) {
            return lines[line - 1]
        }
        // A write checkpoint's request is its query, as the step reads it.
        let request: JSONValue = exchange.rpc == "write-checkpoint" ? .object(exchange.queryParameters) : exchange.request
        return ["request": request, "response": exchange.response]
    }
}
