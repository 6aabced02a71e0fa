import Checks
import Corpus
import Explore
import JSON
import KizunaWire
import Reports
import ServerContract

extension KizunaSync {
    /// One generated scenario played against the target and judged.
    struct ExploreOutcome: Sendable {
        /// What a finding is, for shrinking: the first rule that failed and the kind of step it
        /// failed at ("push", "pull", "fault drop-ack", "server", or "seed"). A smaller scenario
        /// is kept only while it fails the same way.
        struct Signature: Sendable, Hashable, CustomStringConvertible {
            var rule: RuleID
            var kind: String

            var description: String { "\(rule) at a \(kind) step" }
        }

        /// A failure and the step it is pinned to.
        struct Located: Sendable {
            var step: Int
            var kind: String
            var failure: Failure
        }

        var scenario: ExploreScenario
        var transcript: ExploreTranscript
        var loaded: LoadedTranscript
        /// The rule and differential failures in step order, then the convergence oracle's.
        var failures: [Located]
        /// The rpc steps the rules judged, and those compared with the reference (not skipped).
        var exchanges: Int
        var compared: Int
        var devicesJudged: Int
        /// Devices the convergence oracle did not compare, with why.
        var unjudged: [String]

        var signature: Signature? { failures.first.map { Signature(rule: $0.failure.ruleID, kind: $0.kind) } }

        /// The first failure's `ExploreFingerprint`.
        var fingerprint: String? { failures.first.map { ExploreFingerprint.of($0.failure, kind: $0.kind) } }
    }

    enum ExplorePlayed: Sendable {
        case outcome(ExploreOutcome)
        /// The scenario could not be played: the reference refused it (Accord's own bug) or the
        /// target failed in a way no rule judges (unreachable, refusing a fixture).
        case problem(String)
    }
}

extension ExploreRun {
    /// Realizes `scenario` on a fresh reference, plays the transcript on a fresh target with the
    /// server lane's play, and runs the convergence oracle over the target's answers.
    func play(_ scenario: KizunaSync.ExploreScenario, in tally: ExploreTally, caseID: String? = nil) async -> KizunaSync.ExplorePlayed {
        let caseID = caseID ?? "lifecycle/000-explore-s\(scenario.seed)-\(scenario.index)"
        let makeTarget: KizunaSync.TargetFactory
        switch side {
        case .server(let factory): makeTarget = factory
        case .client(let client): return await play(scenario, client: client, in: tally, caseID: caseID)
        }
        let realized: KizunaSync.ExploreTranscript
        let loaded: LoadedTranscript
        do throws(TargetError) {
            realized = try await KizunaSync.ExploreRealizer.realize(scenario, caseID: caseID, on: try makeReference(tally.noOpWrites))
        } catch {
            return .problem("the reference could not realize scenario \(scenario.index): \(error)")
        }
        do throws(CorpusError) {
            loaded = try LoadedTranscript(raw: CanonicalJSON.render(realized.json), file: "\(caseID).json")
        } catch {
            return .problem("scenario \(scenario.index) realized to a transcript the corpus grammar refuses: \(error)")
        }
        let target: any KizunaSync.ServerTarget
        do throws(TargetError) { target = try makeTarget() } catch { return .problem("the target \(options.targetName): \(error)") }
        var play = KizunaSync.ServerPlay(loaded: loaded, scenario: realized.setup, requiredTier: options.requiredTier)
        await play.run(on: target)
        var failures: [KizunaSync.ExploreOutcome.Located] = []
        var exchanges = 0
        var compared = 0
        var uncompared = Set<Int>()
        for result in play.cases {
            let (step, kind) = Self.place(of: result.name)
            switch result.outcome {
            case .failed(let list):
                failures += list.map { .init(step: step, kind: kind, failure: $0) }
                uncompared.insert(step)
            case .errored(let reason): return .problem("scenario \(scenario.index), \(result.name): \(reason)")
            case .passed where result.observed != nil:
                exchanges += 1
                if result.note?.hasPrefix("tier ") == true { compared += 1 }
            case .skipped: uncompared.insert(step)
            case .passed: continue
            }
        }
        let oracle = KizunaSync.ConvergenceOracle(scenario: scenario, transcript: realized)
        var convergence = oracle.judge(answers: play.answers, uncompared: uncompared)
        if !convergence.findings.isEmpty && !uncompared.isEmpty {
            // Where the target's answers were not all the reference's, a convergence finding the
            // reference's own answers raise too is no finding of the target's.
            let reference = Set(oracle.judge(answers: realized.goldenAnswers).findings.map(\.rule))
            convergence.findings.removeAll { reference.contains($0.rule) }
        }
        for finding in convergence.findings {
            let steps = realized.json["steps"]?.arrayValue ?? []
            let kind = steps.indices.contains(finding.step - 1) ? Self.kind(of: steps[finding.step - 1]) : "pull"
            failures.append(
                .init(
                    step: finding.step, kind: kind,
                    failure: Failure(
                        ruleID: RuleID(finding.rule), message: "step \(finding.step): \(finding.rule) \(finding.message)",
                        body: finding.detail)))
        }
        return .outcome(
            KizunaSync.ExploreOutcome(
                scenario: scenario, transcript: realized, loaded: loaded, failures: failures, exchanges: exchanges, compared: compared,
                devicesJudged: convergence.devices, unjudged: convergence.unjudged))
    }

    /// The step number and kind of a server-lane testcase name ("step 7 push", "seed", …).
    static func place(of name: String) -> (step: Int, kind: String) {
        let words = name.split(separator: " ", maxSplits: 2).map(String.init)
        guard words.count == 3, words[0] == "step", let step = Int(words[1]) else { return (0, words.first ?? name) }
        return (step, words[2])
    }

    static func kind(of step: JSONValue) -> String {
        switch step["kind"]?.stringValue {
        case "rpc": step["rpc"]?.stringValue ?? "rpc"
        case "fault": "fault " + (step["fault"]?.stringValue ?? "")
        case let kind?: kind
        case nil: "step"
        }
    }
}
