import Checks
import Corpus
import KizunaWire
import Reports
import ServerContract

/// The server lane for one case: seeds the target, plays the transcript's server and rpc steps
/// against it, compares each response with the golden one (tiers pass, semantic, diverged) and
/// runs the rule catalog on every live exchange.
public struct ServerLane: Sendable {
    /// Per-case setup the transcripts leave to prose.
    public var scenarios: Scenarios
    /// The tier a step must reach to pass: `.pass` (byte-equal, the default) or `.semantic`.
    public var requiredTier: ResponseTier
    /// The actor id that history changes are applied as.
    public static let historyActor = "00000000-0000-4000-8000-c19999999999"

    /// Makes a lane.
    /// - Parameters:
    ///   - scenarios: per-case setup.
    ///   - requiredTier: the tier a step must reach to pass.
    public init(scenarios: Scenarios, requiredTier: ResponseTier = .pass) {
        self.scenarios = scenarios
        self.requiredTier = requiredTier
    }

    /// Runs one case against a fresh target.
    /// - Parameters:
    ///   - loaded: the transcript.
    ///   - target: a target no other case uses.
    ///   - properties: the suite's properties.
    /// - Returns: the suite result, with a `tier` property (the worst tier of its rpc steps).
    public func run(_ loaded: LoadedTranscript, on target: any ServerTarget, properties: [SuiteResult.Property]) async -> SuiteResult {
        var play = CasePlay(loaded: loaded, scenario: scenarios.scenario(for: loaded.transcript.caseID), requiredTier: requiredTier)
        await play.run(on: target)
        var all = properties
        all.append(SuiteResult.Property(name: "tier", value: play.worstTier.rawValue))
        return SuiteResult(name: loaded.transcript.caseID, file: loaded.file, properties: all, cases: play.cases)
    }
}

/// One case being played: its results so far and the state the steps share.
struct CasePlay {
    let loaded: LoadedTranscript
    let scenario: Scenarios.Scenario
    let requiredTier: ResponseTier
    var cases: [CaseResult] = []
    var worstTier = ResponseTier.pass
    var checker: TraceChecker
    var stopped: String?

    init(loaded: LoadedTranscript, scenario: Scenarios.Scenario, requiredTier: ResponseTier) {
        self.loaded = loaded
        self.scenario = scenario
        self.requiredTier = requiredTier
        self.checker = TraceChecker(settings: .of(loaded.transcript))
    }

    var transcript: Transcript { loaded.transcript }
    var classname: String { "kizuna.\(transcript.area)" }
    var identity: Identity { Identity(user: transcript.context.userID, session: transcript.context.clientID) }

    mutating func run(on target: any ServerTarget) async {
        do throws(TargetError) {
            try await target.seed(seed)
        } catch {
            stop(error, name: "seed")
        }
        for step in transcript.steps {
            let name = "step \(step.n) \(step.label)"
            if let stopped {
                cases.append(CaseResult(name: name, classname: classname, outcome: .skipped("not run: \(stopped)")))
                continue
            }
            await play(step, name: name, on: target)
            for held in scenario.held where held.commitAfterStep == step.n && stopped == nil {
                do throws(TargetError) { try await target.commit(transaction: held.transaction) } catch {
                    stop(error, name: "commit \(held.transaction) after step \(step.n)")
                }
            }
        }
        for (index, check) in transcript.postconditions.enumerated() {
            cases.append(
                CaseResult(
                    name: "postcondition \(index + 1) \(check.summary)", classname: classname,
                    outcome: .skipped("client-state postcondition: checked in the client lane (accord run --client)")))
        }
    }

    var seed: Seed {
        let history: [FixtureChange] = scenario.history.map { change in
            switch change {
            case .upsert(let table, let pk, let columns):
                .upsert(table: table, pk: pk, columns: columns, actor: ServerLane.historyActor, hlc: nil)
            case .delete(let table, let pk): .delete(table: table, pk: pk, actor: ServerLane.historyActor)
            case .reap: .reap
            }
        }
        return Seed(server: transcript.context.server, nextSeq: scenario.nextSeq ?? SequenceNumber(1), history: history)
    }

    mutating func stop(_ error: TargetError, name: String) {
        let reason = "\(name): \(error)"
        stopped = error.isUnsupported ? "the target does not support this case (\(error.detail))" : reason
        let outcome: CaseOutcome = error.isUnsupported ? .skipped("unsupported: \(error.detail)") : .errored(reason)
        cases.append(CaseResult(name: name, classname: classname, outcome: outcome))
    }
}
