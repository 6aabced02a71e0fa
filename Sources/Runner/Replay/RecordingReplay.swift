import Checks
import Corpus
import KizunaWire
import Reports
import ServerContract

/// The server lane for one recording: the recorded requests are replayed in recording order
/// (`ReplayPlayer`), each live response is compared with the recorded one (tiers pass, semantic,
/// diverged: a server that makes other seqs, cursors or timestamps reaches semantic, since the
/// binding table carries its values forward) and the rule catalog runs on every live exchange.
/// One testcase per exchange; plain HTTP exchanges are reported skipped.
public struct RecordingReplay: Sendable {
    /// The tier an exchange must reach to pass.
    public var requiredTier: ResponseTier
    /// A server configuration that overrides the one inferred from the recording.
    public var config: ServerConfig?
    static let classname = "kizuna.recording"

    /// Makes a replay.
    /// - Parameters:
    ///   - requiredTier: the tier an exchange must reach.
    ///   - config: the configuration to seed instead of the inferred one.
    public init(requiredTier: ResponseTier = .pass, config: ServerConfig? = nil) {
        self.requiredTier = requiredTier
        self.config = config
    }

    /// Replays a recording.
    /// - Parameters:
    ///   - recording: the recording.
    ///   - file: its path, for the suite.
    ///   - makeTarget: makes the fresh target the recording is replayed on.
    ///   - properties: the suite's properties.
    /// - Returns: the suite, with a `tier` property (the worst tier of its exchanges).
    public func run(
        _ recording: RecordingContents, file: String, makeTarget: @escaping ServerRun.TargetFactory, properties: [SuiteResult.Property]
    )
        async -> SuiteResult
    {
        let live = await ReplayPlayer.play(recording, seed: ReplayPlayer.seed(for: recording, config: config), makeTarget: makeTarget)
        var checker = TraceChecker(settings: .live)
        var worst = ResponseTier.pass
        var cases: [CaseResult] = []
        for item in live {
            switch item.outcome {
            case .skipped(let reason):
                cases.append(CaseResult(name: item.name, classname: Self.classname, outcome: .skipped(reason)))
            case .errored(let reason):
                cases.append(CaseResult(name: item.name, classname: Self.classname, outcome: .errored(reason)))
            case .answered(let sent, let substitutions, let reply, let learned):
                let (result, tier) = judge(item, sent: sent, reply: reply, checker: &checker)
                worst = max(worst, tier)
                var notes = [result.note].compactMap { $0 }
                if !substitutions.isEmpty { notes.append("sent with " + substitutions.map(\.description).joined(separator: ", ")) }
                if !learned.isEmpty { notes.append("bound " + learned.joined(separator: ", ")) }
                cases.append(
                    CaseResult(
                        name: item.name, classname: Self.classname, outcome: result.outcome,
                        note: notes.isEmpty ? nil : notes.joined(separator: "; ")))
            }
        }
        if cases.isEmpty {
            cases.append(CaseResult(name: "no exchanges", classname: Self.classname, outcome: .skipped("the recording holds no exchanges")))
        }
        if let torn = recording.tornLine {
            cases.append(
                CaseResult(
                    name: "torn tail", classname: Self.classname,
                    outcome: .skipped(
                        "torn last line \(torn) ignored: the recording was cut mid-write; every complete exchange was replayed")))
        }
        var all = properties
        all.append(SuiteResult.Property(name: "tier", value: worst.rawValue))
        all.append(SuiteResult.Property(name: "recorded_by", value: recording.header.tool))
        all.append(SuiteResult.Property(name: "upstream", value: recording.header.upstream))
        let name = file.split(separator: "/").last.map(String.init) ?? file
        return SuiteResult(name: name, file: file, properties: all, cases: cases)
    }

    /// Judges one live reply against its recorded exchange and runs the rules on it.
    func judge(_ item: LiveExchange, sent: JSONValue, reply: RPCReply, checker: inout TraceChecker) -> (CaseResult, ResponseTier) {
        let exchange = item.exchange
        let label = "exchange \(exchange.number) \(exchange.rpc)"
        func failed(_ message: String, _ expected: JSONValue, _ actual: JSONValue) -> CaseResult {
            CaseResult(
                name: item.name, classname: Self.classname,
                outcome: .failed([
                    Failure(
                        ruleID: "AC-GOLDEN", message: "\(label): AC-GOLDEN \(message)",
                        body: "expected: " + CanonicalJSON.compact(expected) + "\nactual: " + CanonicalJSON.compact(actual))
                ]))
        }
        if exchange.status == TranscriptToRecording.lostAnswer {
            guard (200..<300).contains(reply.status) else {
                return (
                    failed("the server refused a request whose recorded answer was lost (HTTP \(reply.status))", .null, reply.body),
                    .diverged
                )
            }
            let note = "the recorded answer was lost (status 0): replayed for its effect, the live answer is not compared"
            return (CaseResult(name: item.name, classname: Self.classname, outcome: .passed, note: note), .pass)
        }
        let recordedAnswer = (200..<300).contains(exchange.status)
        if !recordedAnswer {
            let code = exchange.response["code"]
            if reply.status == exchange.status && reply.body["code"] == code {
                let note = "error reply \(reply.status) \(code.map(CanonicalJSON.compact) ?? "")"
                return (CaseResult(name: item.name, classname: Self.classname, outcome: .passed, note: note), .pass)
            }
            return (failed("expected HTTP \(exchange.status), got HTTP \(reply.status)", exchange.response, reply.body), .diverged)
        }
        if !(200..<300).contains(reply.status) {
            return (
                failed(
                    "the server answered HTTP \(reply.status), the recorded status is \(exchange.status)", exchange.response, reply.body),
                .diverged
            )
        }
        guard let rpc = RPCKind(rawValue: exchange.rpc) else {
            return (CaseResult(name: item.name, classname: Self.classname, outcome: .skipped("not an rpc")), .pass)
        }
        let event = TraceEvent(
            location: StepLocation(number: exchange.number, label: exchange.rpc, unit: .exchange, line: exchange.line),
            client: item.session.client ?? "(unknown client)", payload: .exchange(rpc, request: sent, response: reply.body))
        let scope: JSONValue = ["request": sent, "response": reply.body]
        var failures = checker.observe(event).map { TranscriptCheck.failure($0, in: scope) }
        let (tier, pointer) = ResponseTier.compare(reply.body, golden: exchange.response)
        failures += ResponseTier.failures(
            live: reply.body, reference: exchange.response, tier: tier, pointer: pointer, required: requiredTier, label: label,
            noun: "recorded")
        if !failures.isEmpty {
            return (CaseResult(name: item.name, classname: Self.classname, outcome: .failed(failures), note: "tier \(tier.rawValue)"), tier)
        }
        let note =
            tier == .pass
            ? "tier pass: canonical bytes equal" : "tier semantic: equal once seq, cursor, winner_seq and deleted_at are masked"
        return (CaseResult(name: item.name, classname: Self.classname, outcome: .passed, note: note), tier)
    }

    static func show(_ pointer: JSONPointer) -> String { pointer.tokens.isEmpty ? "/" : pointer.description }
}
