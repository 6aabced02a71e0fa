import Checks
import Corpus
import Foundation
import KizunaWire
import Reports
import ServerContract

extension KizunaSync {
    /// The actor id that history changes are applied as.
    static let historyActor = "00000000-0000-4000-8000-c19999999999"

    /// One KizunaSync case being played on a server: its results so far and the state the steps share.
    struct ServerPlay: ServerCasePlay {
        /// Seeds the target with the case's setup (or reports the case not applicable when it needs
        /// setup nobody gave) and plays its server and rpc steps; the suite gains a
        /// `tier` property (the worst tier of its compared rpc steps, `none` when none was compared), a
        /// `left_to_client_lane` property (the client-side steps, transport faults and postconditions,
        /// which are not test cases here) and the target's capabilities.
        static func play(_ loaded: LoadedTranscript, on target: any KizunaSync.ServerTarget, lane: ServerLane<KizunaSync>) async -> Played {
            var play: Self
            switch lane.scenarios.setup(for: loaded) {
            case .ready(let scenario):
                play = Self(loaded: loaded, scenario: scenario, requiredTier: lane.requiredTier)
            case .missing(let reason):
                play = Self(loaded: loaded, scenario: .none, requiredTier: lane.requiredTier)
                play.notApplicable(reason)
            }
            await play.run(on: target)
            var properties = [
                SuiteResult.Property(name: "tier", value: play.worstTier?.rawValue ?? "none"),
                SuiteResult.Property(name: SuiteResult.leftToLaneProperty("client"), value: "\(play.leftToClientLane)"),
            ]
            if let capabilities = play.capabilities {
                properties.append(SuiteResult.Property(name: "capabilities", value: capabilities.description))
            }
            return Played(cases: play.cases, properties: properties)
        }

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
        var checker: Checker<KizunaSync.Trace>
        var bindings: Bindings
        var capabilities: TargetCapabilities?
        var phase = Phase.playing
        /// Steps and postconditions the client lane checks: counted, not reported as test cases.
        var leftToClientLane = 0
        /// The target's answer to each rpc step and drop-ack, by step number (`accord explore`'s
        /// convergence oracle reads them).
        var answers: [Int: RPCReply] = [:]

        init(loaded: LoadedTranscript, scenario: Scenarios.Scenario, requiredTier: ResponseTier) {
            self.loaded = loaded
            self.scenario = scenario
            self.requiredTier = requiredTier
            self.checker = Checker<KizunaSync.Trace>(settings: .of(loaded.transcript))
            self.bindings = Bindings(times: loaded.transcript.isRecorded ? .order : .bijection)
        }

        var transcript: Transcript { loaded.transcript }
        var classname: String { CaseResult.classname(lane: "server", caseID: transcript.caseID) }
        var identity: Identity { Identity(user: transcript.context.userID, session: transcript.context.clientID) }

        mutating func run(on target: any KizunaSync.ServerTarget) async {
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
        private mutating func begin(on target: any KizunaSync.ServerTarget) async {
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
                    .upsert(table: table, pk: pk, columns: columns, actor: KizunaSync.historyActor, hlc: nil)
                case .delete(let table, let pk): .delete(table: table, pk: pk, actor: KizunaSync.historyActor)
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
}
