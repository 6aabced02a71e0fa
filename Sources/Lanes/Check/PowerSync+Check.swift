import Checks
import Corpus
import Harness
import JSON
import PowerSyncWire
import Reports

/// The offline check of one PowerSync transcript: PS-SHAPE and the PS rules over its steps,
/// reported as a suite with one case per step; a finding's message names the step, the
/// NDJSON line and the pointer. I-1 (KizunaSync's corpus byte rule) does not apply: a
/// PowerSync transcript keeps number literals as written, so that a checksum sent as `-1.0`
/// stays a float.
extension PowerSync {
    static func checked(_ loaded: PowerSync.LoadedTranscript, properties: [SuiteResult.Property]) -> SuiteResult {
        let transcript = loaded.transcript
        let classname = CaseResult.classname(lane: "check", caseID: transcript.caseID)
        let stepsJSON = loaded.json["steps"]?.arrayValue ?? []
        var checker = Checker<PowerSync.Trace>()
        var byStep: [Int: [Finding]] = [:]
        var seconds: [Int: Double] = [:]
        for event in PowerSync.Trace.Event.events(of: transcript.steps) {
            let started = ContinuousClock.now
            let found = checker.observe(event)
            seconds[event.location.number, default: 0] += RunClock.seconds(since: started)
            byStep[event.location.number, default: []] += found
        }
        var cases: [CaseResult] = []
        for (index, step) in transcript.steps.enumerated() {
            let name = "step \(step.n) \(step.label)"
            if step.isSourceSide {
                cases.append(CaseResult(name: name, classname: classname, outcome: .skipped(sourceSideReason)))
                continue
            }
            let stepJSON = stepsJSON.indices.contains(index) ? stepsJSON[index] : .null
            let found = byStep[step.n] ?? []
            var outcome: CaseOutcome =
                found.isEmpty ? .passed : .failed(found.map { TranscriptCheck.failure($0, in: scope(of: $0, in: stepJSON)) })
            if case .client(let client) = step.action, client.checkpointCall == nil { outcome = .skipped(clientStepReason) }
            var result = CaseResult(name: name, classname: classname, outcome: outcome, time: seconds[step.n] ?? 0)
            if case .syncStream(_, let lines) = step.action { result.note = UnreadNote.note(for: lines) }
            cases.append(result)
        }
        return SuiteResult(name: transcript.caseID, file: loaded.file, properties: properties + [profileProperty], cases: cases)
    }

    /// Why a client-side step is not judged offline.
    static let clientStepReason =
        "client-side step: checked in the client lane (accord run --client \"accord driver --profile powersync\")"
    /// Why `accord check` does not judge a source or replicate step.
    static let sourceSideReason =
        "not applicable offline: a source-side step sets the service's state; the server lane (accord run --server) plays it against a service"

    /// The JSON a finding's pointer is relative to: its NDJSON line, or the step.
    private static func scope(of finding: Finding, in step: JSONValue) -> JSONValue {
        guard let line = finding.location?.streamLine, let lines = step["lines"]?.arrayValue, lines.indices.contains(line - 1) else {
            return step
        }
        return lines[line - 1]
    }
}
