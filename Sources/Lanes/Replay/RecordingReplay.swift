import Checks
import Corpus
import Harness
import KizunaWire
import Reports
import ServerContract

/// The server lane for one recording, in two passes over it: a survey (`ReplayPlan`: the world
/// the recording implies and the rules its own answers break), then the replay (`ReplayPlayer`):
/// the recorded requests in recording order on one target seeded with that world, each with the
/// server-made values this server answered so far. Each live response is compared with the
/// recorded one (tiers pass, bound, diverged: a server that makes other seqs, cursors or
/// timestamps reaches bound) and the rule catalog runs on every live exchange. One testcase per
/// exchange; an exchange whose recorded answer breaks a rule is the recorded service's failure;
/// plain HTTP exchanges and answers the service did not give are reported skipped; a difference
/// the recording cannot explain (`RecordedWorld.notInferable`) is reported not inferable.
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

    /// Replays a recording held in memory.
    /// - Parameters:
    ///   - recording: the recording.
    ///   - file: its path, for the suite.
    ///   - makeTarget: makes the fresh target the recording is replayed on.
    ///   - properties: the suite's properties.
    /// - Returns: the suite, with a `tier` property (the worst tier of its exchanges).
    public func run(
        _ recording: RecordingContents, file: String, makeTarget: @escaping KizunaSync.TargetFactory, properties: [SuiteResult.Property]
    ) async -> SuiteResult {
        await run(.held(recording, file: file), makeTarget: makeTarget, properties: properties)
    }

    /// Replays a recording.
    func run(_ source: RecordingSource, makeTarget: @escaping KizunaSync.TargetFactory, properties: [SuiteResult.Property]) async
        -> SuiteResult
    {
        let file = source.file
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let classname = CaseResult.classname(lane: "server", caseID: "recording/" + name)
        let plan: ReplayPlan
        do throws(RunError) { plan = try Self.survey(source) } catch {
            return SuiteResult(
                name: name, file: file, properties: properties,
                cases: [CaseResult(name: "recording", classname: classname, outcome: .errored("\(error)"))])
        }
        var world = plan.world
        if let config { world.server = config }
        var player = ReplayPlayer(world: world, makeTarget: makeTarget)
        var checker = Checker<KizunaSync.Trace>(settings: .live)
        var worst: ResponseTier?
        var cases: [CaseResult] = []
        // What this server answered, drawn in place of what the recording holds.
        var drawn = RecordingTimeline()
        do throws(RunError) {
            let stream = try source.stream()
            while let item = try stream.next() {
                guard case .exchange(let exchange) = item else { continue }
                let live = await player.play(exchange)
                if case .answered(let sent, _, let reply, _, _) = live.outcome {
                    drawn.add(exchange, observed: CaseResult.Observed(request: sent, answer: .init(status: reply.status, body: reply.body)))
                } else {
                    drawn.add(exchange)
                }
                var (result, tier) = judge(live, plan: plan, checker: &checker, classname: classname)
                if let tier { worst = max(worst ?? .pass, tier) }
                result.time = live.seconds
                cases.append(result)
            }
        } catch {
            cases.append(
                CaseResult(name: "recording", classname: classname, outcome: .errored("the recording could not be read again: \(error)")))
        }
        if cases.isEmpty {
            cases.append(CaseResult(name: "no exchanges", classname: classname, outcome: .skipped("the recording holds no exchanges")))
        }
        if let torn = plan.tornLine { cases.append(Self.tornTail(torn, classname: classname, done: "replayed")) }
        var all = properties
        all.append(SuiteResult.Property(name: "tier", value: worst?.rawValue ?? "none"))
        all.append(SuiteResult.Property(name: "inferred_changes", value: "\(world.count)"))
        if let header = plan.header {
            all.append(SuiteResult.Property(name: "recorded_by", value: header.tool))
            all.append(SuiteResult.Property(name: "upstream", value: header.upstream))
        }
        return SuiteResult(name: name, file: file, properties: all, cases: cases).drawing(drawn.timeline)
    }

    /// One exchange's test case and the tier it reached, if it was compared.
    private func judge(_ item: LiveExchange, plan: ReplayPlan, checker: inout Checker<KizunaSync.Trace>, classname: String) -> (
        CaseResult, ResponseTier?
    ) {
        let exchange = item.exchange
        switch item.outcome {
        case .skipped(let reason):
            return (CaseResult(name: item.name, classname: classname, outcome: .skipped(reason)), nil)
        case .errored(let reason):
            return (CaseResult(name: item.name, classname: classname, outcome: .errored(reason)), nil)
        case .answered(let sent, let substitutions, let reply, let learning, let translated):
            guard let rpc = RPCKind(rawValue: exchange.rpc) else {
                return (CaseResult(name: item.name, classname: classname, outcome: .skipped("not an rpc")), nil)
            }
            var judged = ExchangeJudge.Exchange(
                reference: ReferenceAnswer(rpc: rpc, status: exchange.status, body: exchange.response, noun: "recorded"), sent: sent,
                substitutions: substitutions, reply: reply, learning: learning, translated: translated, notApplicable: nil,
                label: "exchange \(exchange.number) \(exchange.rpc)",
                location: StepLocation(number: exchange.number, label: exchange.rpc, unit: .exchange, line: exchange.line),
                client: item.session.client ?? "(unknown client)")
            judged.notInferable = plan.world.notInferable[exchange.number]
            judged.recordedFaults = plan.recordedFaults[exchange.number] ?? []
            let judgement = ExchangeJudge.judge(judged, checker: &checker, required: requiredTier)
            var notes = judgement.note.map { [$0] } ?? []
            if !item.world.isEmpty {
                notes.append(
                    "after \(item.world.count) inferred server change\(item.world.count == 1 ? "" : "s"): "
                        + item.world.map(\.description).joined(separator: "; "))
            }
            let result = CaseResult(
                name: item.name, classname: classname, outcome: judgement.outcome, note: notes.isEmpty ? nil : notes.joined(separator: "; ")
            )
            return (result, judgement.tier)
        }
    }

    /// The world a recording implies, as a replay seeds and plays it (answers that break a rule
    /// teach it nothing).
    public static func world(of recording: RecordingContents) -> RecordedWorld {
        ReplayPlan.survey(recording).world
    }

    /// The survey of a recording: one streamed pass.
    static func survey(_ source: RecordingSource) throws(RunError) -> ReplayPlan {
        var survey = ReplayPlan.Survey()
        let stream = try source.stream()
        while let item = try stream.next() { survey.observe(item) }
        return survey.finish(tornLine: stream.tornLine)
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
