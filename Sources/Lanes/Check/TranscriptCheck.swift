import Checks
import Corpus
import Harness
import JSON
import KizunaWire
import Reports

/// The offline check of one transcript: I-1 on its bytes, the decoding and trace rules on its
/// steps, reported as a suite with one case per step and per postcondition.
public enum TranscriptCheck {
    /// Why a step kind is not judged offline.
    static func skipReason(_ action: StepAction) -> String? {
        switch action {
        case .rpc(let exchange):
            exchange.isAnswer
                ? nil : "HTTP \(exchange.status) error reply: the rules judge protocol answers; the server lane checks the status and code"
        case .server, .reap: "server setup step: exercised by the server lane (accord run --server)"
        case .local: "client-local write: exercised by the client lane (accord run --client)"
        case .fault: "transport fault: injected by the server and client lanes"
        case .assert:
            "client-state checks run in the client lane (accord run --client); offline, only the consistency of asserted cursors (I-3) is checked"
        }
    }

    /// Checks a transcript.
    /// - Parameters:
    ///   - loaded: the transcript and its bytes.
    ///   - properties: the suite's properties.
    /// - Returns: the suite result.
    public static func suite(_ loaded: LoadedTranscript, properties: [SuiteResult.Property]) -> SuiteResult {
        let transcript = loaded.transcript
        let classname = CaseResult.classname(lane: "check", caseID: transcript.caseID)
        let stepsJSON = loaded.json["steps"]?.arrayValue ?? []
        let bytesStarted = ContinuousClock.now
        var findings = CanonicalBytesRule.findings(raw: loaded.raw, json: loaded.json) { index in
            transcript.steps.indices.contains(index)
                ? StepLocation(number: transcript.steps[index].n, label: transcript.steps[index].label) : nil
        }
        let bytesSeconds = RunClock.seconds(since: bytesStarted)
        var checker = Checker<KizunaSync.Trace>(settings: .of(transcript))
        var seconds: [Int: Double] = [:]
        for event in KizunaSync.Trace.Event.events(of: transcript) {
            let started = ContinuousClock.now
            findings += checker.observe(event)
            seconds[event.location.number, default: 0] += RunClock.seconds(since: started)
        }
        var byStep: [Int: [Finding]] = [:]
        var fileLevel: [Finding] = []
        for finding in findings {
            if let step = finding.location?.number { byStep[step, default: []].append(finding) } else { fileLevel.append(finding) }
        }
        var cases: [CaseResult] = []
        cases.append(
            CaseResult(
                name: "file canonical bytes", classname: classname,
                outcome: fileLevel.isEmpty ? .passed : .failed(fileLevel.map { failure($0, in: loaded.json) }), time: bytesSeconds))
        for (index, step) in transcript.steps.enumerated() {
            let name = "step \(step.n) \(step.label)"
            let stepJSON = stepsJSON.indices.contains(index) ? stepsJSON[index] : .null
            if let found = byStep[step.n], !found.isEmpty {
                cases.append(
                    CaseResult(
                        name: name, classname: classname, outcome: .failed(found.map { failure($0, in: stepJSON) }),
                        time: seconds[step.n] ?? 0))
            } else if let reason = skipReason(step.action) {
                cases.append(CaseResult(name: name, classname: classname, outcome: .skipped(reason)))
            } else {
                cases.append(CaseResult(name: name, classname: classname, outcome: .passed, time: seconds[step.n] ?? 0))
            }
        }
        for (index, check) in transcript.postconditions.enumerated() {
            cases.append(
                CaseResult(
                    name: "postcondition \(index + 1) \(check.summary)", classname: classname,
                    outcome: .skipped("client-state postcondition: checked in the client lane (accord run --client)")))
        }
        return SuiteResult(name: transcript.caseID, file: loaded.file, properties: properties, cases: cases)
    }

    /// A report failure for a finding: the one-line message, and expected versus actual.
    /// - Parameters:
    ///   - finding: the finding.
    ///   - scope: the JSON the finding's pointer is relative to.
    /// - Returns: the failure.
    public static func failure(_ finding: Finding, in scope: JSONValue) -> Failure {
        var body: [String] = []
        if let expected = finding.expected { body.append("expected: " + CanonicalJSON.compact(expected)) }
        if let actual = finding.actual ?? scope.value(at: finding.pointer), !finding.pointer.tokens.isEmpty || finding.actual != nil {
            body.append("actual: " + CanonicalJSON.compact(actual))
        }
        return Failure(ruleID: finding.ruleID, message: finding.description, body: body.joined(separator: "\n"))
    }

    /// The suite for a blocked manifest entry: in the offline lane, one skipped case naming its
    /// blocking decisions; in a live lane (a `lane` property of `server`, `client` or
    /// `client-kill-matrix`), no test case, since no lane can check it yet, and a `blocked_on`
    /// property naming the decisions, which the console summary counts.
    /// - Parameters:
    ///   - entry: the entry.
    ///   - decisions: decision titles by id, when the corpus has decisions/index.json.
    ///   - properties: the suite's properties.
    /// - Returns: the suite result.
    public static func blockedSuite(_ entry: Manifest.Entry, decisions: [String: String], properties: [SuiteResult.Property]) -> SuiteResult
    {
        let lane = properties.lane.map { $0 == .clientKillMatrix ? "kill" : $0.rawValue } ?? "corpus"
        let blockers = (entry.blockedOn ?? []).map { id in decisions[id].map { "\(id) (\($0))" } ?? id }
        let reason = "blocked on " + blockers.joined(separator: ", ")
        if ["server", "client", "kill"].contains(lane) {
            let blocked = SuiteResult.Property(name: SuiteResult.blockedProperty, value: blockers.joined(separator: ", "))
            return SuiteResult(name: entry.id, file: nil, properties: properties + [blocked])
        }
        return SuiteResult(
            name: entry.id, file: nil, properties: properties,
            cases: [CaseResult(name: "blocked", classname: CaseResult.classname(lane: lane, caseID: entry.id), outcome: .skipped(reason))])
    }
}
