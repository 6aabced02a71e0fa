import Checks
import Corpus
import KizunaWire
import Reports
import ServerContract

/// The server lane for one recording: the recorded requests are replayed in recording order
/// (`ReplayPlayer`), each with the server-made values this server answered so far, each live
/// response is compared with the recorded one (tiers pass, bound, diverged: a server that makes
/// other seqs, cursors or timestamps reaches bound) and the rule catalog runs on every live
/// exchange. One testcase per exchange; plain HTTP exchanges are reported skipped.
public struct RecordingReplay: Sendable {
    /// The tier an exchange must reach to pass.
    public var requiredTier: ResponseTier
    /// A server configuration that overrides the one inferred from the recording.
    public var config: ServerConfig?

    /// Makes a replay.
    /// - Parameters:
    ///   - requiredTier: the tier an exchange must reach.
    ///   - config: the configuration to seed instead of the inferred one.
    public init(requiredTier: ResponseTier = .bound, config: ServerConfig? = nil) {
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
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let classname = CaseResult.classname(lane: "server", caseID: "recording/" + name)
        var worst: ResponseTier?
        var cases: [CaseResult] = []
        for item in live {
            let before = cases.count
            defer {
                for index in before..<cases.count { cases[index].time = item.seconds }
            }
            switch item.outcome {
            case .skipped(let reason):
                cases.append(CaseResult(name: item.name, classname: classname, outcome: .skipped(reason)))
            case .errored(let reason):
                cases.append(CaseResult(name: item.name, classname: classname, outcome: .errored(reason)))
            case .answered(let sent, let substitutions, let reply, let learning, let translated):
                let exchange = item.exchange
                guard let rpc = RPCKind(rawValue: exchange.rpc) else {
                    cases.append(CaseResult(name: item.name, classname: classname, outcome: .skipped("not an rpc")))
                    continue
                }
                let judged = ExchangeJudge.Exchange(
                    reference: ReferenceAnswer(rpc: rpc, status: exchange.status, body: exchange.response, noun: "recorded"), sent: sent,
                    substitutions: substitutions, reply: reply, learning: learning, translated: translated, notApplicable: nil,
                    label: "exchange \(exchange.number) \(exchange.rpc)",
                    location: StepLocation(number: exchange.number, label: exchange.rpc, unit: .exchange, line: exchange.line),
                    client: item.session.client ?? "(unknown client)")
                let judgement = ExchangeJudge.judge(judged, checker: &checker, required: requiredTier)
                if let tier = judgement.tier { worst = max(worst ?? .pass, tier) }
                cases.append(CaseResult(name: item.name, classname: classname, outcome: judgement.outcome, note: judgement.note))
            }
        }
        if cases.isEmpty {
            cases.append(CaseResult(name: "no exchanges", classname: classname, outcome: .skipped("the recording holds no exchanges")))
        }
        if let torn = recording.tornLine { cases.append(Self.tornTail(torn, classname: classname, done: "replayed")) }
        var all = properties
        all.append(SuiteResult.Property(name: "tier", value: worst?.rawValue ?? "none"))
        all.append(SuiteResult.Property(name: "recorded_by", value: recording.header.tool))
        all.append(SuiteResult.Property(name: "upstream", value: recording.header.upstream))
        return SuiteResult(name: name, file: file, properties: all, cases: cases)
    }

    /// The skipped case a recording's torn last line is reported as.
    /// - Parameters:
    ///   - line: the torn line.
    ///   - classname: the suite's classname.
    ///   - done: what was done with every complete exchange ("replayed", "compared").
    /// - Returns: the case.
    static func tornTail(_ line: Int, classname: String, done: String) -> CaseResult {
        CaseResult(
            name: "torn tail", classname: classname,
            outcome: .skipped("torn last line \(line) ignored: the recording was cut mid-write; every complete exchange was \(done)"))
    }
}
