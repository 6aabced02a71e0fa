import Checks
import Corpus
import JSON
import KizunaWire
import Reports

extension KizunaSync.Trace.Event {
    /// Whether the event is an answered pull or push, which the rules judge.
    var isExchange: Bool {
        if case .exchange = payload { return true }
        return false
    }
}

/// What a replay of a recording knows before it sends anything, from one pass over the
/// recording: the world the recording implies (`WorldInference`: the history, the other actors'
/// changes, the configuration), and the exchanges whose recorded answer already breaks a rule
/// (the recorded service's fault, reported as such before any replay can blame the build).
struct ReplayPlan: Sendable {
    /// The world to seed and play.
    var world: RecordedWorld
    /// The rule failures of each recorded answer that breaks one, by exchange number.
    var recordedFaults: [Int: [Failure]] = [:]
    /// The recording's header.
    var header: RecordingHeader?
    /// The torn last line, if the recording was cut mid-write.
    var tornLine: Int?

    /// Studies a recording, one exchange at a time.
    struct Survey {
        private var inference = WorldInference()
        private var checker = Checker<KizunaSync.Trace>(settings: .live)
        private var plan = ReplayPlan(world: RecordedWorld(server: ServerInference().config))

        mutating func observe(_ item: RecordingReader.Item) {
            switch item {
            case .header(let header): plan.header = header
            case .exchange(let exchange):
                guard exchange.rpc == "pull" || exchange.rpc == "push", exchange.unreplayableReason == nil else { return }
                let event = KizunaSync.Trace.Event.event(of: exchange)
                let findings = event.isExchange ? checker.observe(event) : []
                // An answer that breaks a rule says nothing reliable about the service's rows.
                guard !findings.isEmpty else {
                    inference.observe(exchange)
                    return
                }
                let scope: JSONValue = ["request": exchange.request, "response": exchange.response]
                plan.recordedFaults[exchange.number] = findings.map { finding in
                    let failure = TranscriptCheck.failure(finding, in: scope)
                    let at = finding.pointer.tokens.isEmpty ? "" : " (at \(finding.pointer))"
                    return Failure(
                        ruleID: failure.ruleID,
                        message:
                            "\(finding.location?.description ?? "exchange \(exchange.number) \(exchange.rpc)"): the recorded answer breaks \(finding.ruleID) \(finding.message)\(at): the recorded service's fault, so the live answer is judged by the rules alone",
                        body: failure.body)
                }
            }
        }

        /// The plan, once every line is read.
        func finish(tornLine: Int?) -> ReplayPlan {
            var plan = plan
            plan.world = inference.world()
            plan.tornLine = tornLine
            return plan
        }
    }

    /// Surveys a recording held in memory.
    static func survey(_ recording: RecordingContents) -> ReplayPlan {
        var survey = Survey()
        survey.observe(.header(recording.header))
        for exchange in recording.exchanges { survey.observe(.exchange(exchange)) }
        return survey.finish(tornLine: recording.tornLine)
    }
}
