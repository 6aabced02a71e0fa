import Checks
import Corpus
import Foundation
import KizunaWire
import Reports
import ServerContract

/// The server lane for one case: seeds the target, plays the transcript's server and rpc steps
/// against it as a client following the conversation (each request carries the server-made
/// values this server answered, through `Bindings`), compares each answer with the golden one
/// (tiers pass, bound, diverged) and runs the rule catalog on every live exchange. A step that
/// needs what the target cannot steer (`TargetCapabilities`) is reported not applicable, its
/// rules still run. Client-side steps (local writes, assertions, transport faults that never reach
/// the server) and postconditions are the client lane's: they are counted in the suite's
/// `left_to_client_lane` property, not reported as test cases.
public struct ServerLane: Sendable {
    /// Per-case setup the transcripts leave to prose.
    public var scenarios: Scenarios
    /// The tier a step must reach to pass: `.bound` (the default) or `.pass` (byte-equal).
    public var requiredTier: ResponseTier
    /// The actor id that history changes are applied as.
    public static let historyActor = "00000000-0000-4000-8000-c19999999999"

    /// Makes a lane.
    /// - Parameters:
    ///   - scenarios: per-case setup.
    ///   - requiredTier: the tier a step must reach to pass.
    public init(scenarios: Scenarios, requiredTier: ResponseTier = .bound) {
        self.scenarios = scenarios
        self.requiredTier = requiredTier
    }

    /// Runs one case against a fresh target.
    /// - Parameters:
    ///   - loaded: the transcript.
    ///   - target: a target no other case uses.
    ///   - properties: the suite's properties.
    /// - Returns: the suite result, with a `tier` property (the worst tier of its compared rpc
    ///   steps, `none` when none was compared), a `left_to_client_lane` property (the client-side
    ///   steps, transport faults and postconditions, which are not test cases here) and the
    ///   target's capabilities.
    public func run(_ loaded: LoadedTranscript, on target: any ServerTarget, properties: [SuiteResult.Property]) async -> SuiteResult {
        var play: CasePlay
        switch scenarios.setup(for: loaded) {
        case .ready(let scenario):
            play = CasePlay(loaded: loaded, scenario: scenario, requiredTier: requiredTier)
        case .missing(let reason):
            play = CasePlay(loaded: loaded, scenario: .none, requiredTier: requiredTier)
            play.notApplicable(reason)
        }
        await play.run(on: target)
        var all = properties
        all.append(SuiteResult.Property(name: "tier", value: play.worstTier?.rawValue ?? "none"))
        all.append(SuiteResult.Property(name: SuiteResult.leftToLaneProperty("client"), value: "\(play.leftToClientLane)"))
        if let capabilities = play.capabilities { all.append(SuiteResult.Property(name: "capabilities", value: capabilities.description)) }
        return SuiteResult(name: loaded.transcript.caseID, file: loaded.file, properties: all, cases: play.cases)
    }

    /// Runs one case against a target made for it; a target that cannot be made is the suite's
    /// one errored test case, `target`.
    /// - Parameters:
    ///   - loaded: the transcript.
    ///   - makeTarget: makes a target no other case uses.
    ///   - properties: the suite's properties.
    /// - Returns: the suite result.
    func run(_ loaded: LoadedTranscript, makeTarget: ServerRun.TargetFactory, properties: [SuiteResult.Property]) async -> SuiteResult {
        do throws(TargetError) {
            return await run(loaded, on: try makeTarget(), properties: properties)
        } catch {
            return SuiteResult(
                name: loaded.transcript.caseID, file: loaded.file, properties: properties,
                cases: [
                    CaseResult(
                        name: "target", classname: CaseResult.classname(lane: "server", caseID: loaded.transcript.caseID),
                        outcome: .errored("\(error)"))
                ])
        }
    }
}

/// One case being played: its results so far and the state the steps share.
struct CasePlay {
    /// Where the play stands: playing, or stopped by a target that could not be driven or by
    /// setup the case needs and nobody gave (the remaining steps are reported not run, with the
    /// reason).
    enum Phase {
        case playing
        case stopped(String)
    }

    let loaded: LoadedTranscript
    let scenario: Scenarios.Scenario
    let requiredTier: ResponseTier
    var cases: [CaseResult] = []
    var worstTier: ResponseTier?
    var checker: Checker<KizunaSyncTrace>
    var bindings: Bindings
    var capabilities: TargetCapabilities?
    var phase = Phase.playing
    /// Steps and postconditions the client lane checks: counted, not reported as test cases.
    var leftToClientLane = 0

    init(loaded: LoadedTranscript, scenario: Scenarios.Scenario, requiredTier: ResponseTier) {
        self.loaded = loaded
        self.scenario = scenario
        self.requiredTier = requiredTier
        self.checker = Checker<KizunaSyncTrace>(settings: .of(loaded.transcript))
        self.bindings = Bindings(times: loaded.transcript.isRecorded ? .order : .bijection)
    }

    var transcript: Transcript { loaded.transcript }
    var classname: String { CaseResult.classname(lane: "server", caseID: transcript.caseID) }
    var identity: Identity { Identity(user: transcript.context.userID, session: transcript.context.clientID) }

    mutating func run(on target: any ServerTarget) async {
        await begin(on: target)
        for step in transcript.steps {
            let name = "step \(step.n) \(step.label)"
            if !step.isServerChecked {
                leftToClientLane += 1
            } else if case .stopped(let reason) = phase {
                cases.append(CaseResult(name: name, classname: classname, outcome: .skipped("not run: \(reason)")))
                continue
            } else {
                let started = ContinuousClock.now
                let before = cases.count
                await play(step, name: name, on: target)
                cases.stamp(from: before, since: started)
            }
            for held in scenario.held where held.commitAfterStep == step.n {
                guard case .playing = phase else { break }
                do throws(TargetError) { try await target.commit(transaction: held.transaction) } catch {
                    stop(error, name: "commit \(held.transaction) after step \(step.n)")
                }
            }
        }
        leftToClientLane += transcript.postconditions.count
    }

    /// Asks the target what it steers, seeds it, and binds the seed's positions to the
    /// server's own numbering.
    private mutating func begin(on target: any ServerTarget) async {
        guard case .playing = phase else { return }
        do throws(TargetError) {
            let capabilities = try await target.capabilities()
            self.capabilities = capabilities
            let before = Self.wallClockSecond()
            let receipt = try await target.seed(seed)
            if capabilities.clock == .wall { bindings.notBefore = receipt.seededAt ?? before }
            let dense = capabilities.numbering == .dense && !transcript.isRecorded
            let learning = bindings.bind(seed: seed, receipt: receipt, dense: dense)
            if !learning.violations.isEmpty {
                let failures = learning.violations.map { Failure(ruleID: "AC-BINDING", message: "seed: AC-BINDING \($0.message)") }
                cases.append(CaseResult(name: "seed", classname: classname, outcome: .failed(failures)))
            }
        } catch {
            stop(error, name: "seed")
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

    /// Why a step's answer cannot be compared on this target, if it cannot: on a target that
    /// stamps seqs at commit, every answer after a held change depends on a hole that never opens.
    func notApplicable(_ step: Step) -> String? {
        guard capabilities?.seqs == .atCommit, let first = scenario.held.map(\.step).min(), step.n > first else { return nil }
        return
            "the target stamps seqs at commit, so the transaction held at step \(first) leaves no hole below later commits, and this answer depends on that hole"
    }

    /// Reports the whole case not applicable before it starts: one `setup` case with the reason;
    /// `run` then touches no target and reports every server step not run because of it.
    mutating func notApplicable(_ reason: String) {
        cases.append(CaseResult(name: "setup", classname: classname, outcome: .skipped("not applicable: \(reason)")))
        phase = .stopped("the case's setup is missing")
    }

    mutating func stop(_ error: TargetError, name: String) {
        let reason = "\(name): \(error)"
        phase = .stopped(error.isUnsupported ? "the target does not support this case (\(error.detail))" : reason)
        let outcome: CaseOutcome = error.isUnsupported ? .skipped("unsupported: \(error.detail)") : .errored(reason)
        cases.append(CaseResult(name: name, classname: classname, outcome: outcome))
    }

    /// The runner's time, truncated to the second: the earliest a wall-clock server that does not
    /// report its own time at the seed may stamp.
    static func wallClockSecond() -> UTCTimestamp? {
        let parts = Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC") ?? .current, from: Date())
        guard let year = parts.year, let month = parts.month, let day = parts.day, let hour = parts.hour, let minute = parts.minute,
            let second = parts.second
        else { return nil }
        return UTCTimestamp.of(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }
}
