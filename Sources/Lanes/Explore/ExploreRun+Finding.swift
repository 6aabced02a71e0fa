import Corpus
import Explore
import Harness
import JSON
import KizunaWire
import Reports

extension ExploreRun {
    /// Shrinks a failing scenario, keeps it in the findings folder and reports it.
    func finding(_ outcome: KizunaSync.ExploreOutcome, scenario: KizunaSync.ExploreScenario, tally: ExploreTally) async -> CaseResult {
        let name = "scenario \(scenario.index): " + (outcome.signature.map { "\($0)" } ?? "finding")
        let (shrunk, tries) = await shrink(outcome, in: tally)
        guard let signature = shrunk.signature else {
            return CaseResult(name: name, classname: "explore", outcome: .failed(outcome.failures.map(\.failure)))
        }
        let first = shrunk.failures.first
        let kept: ExploreFindingsFolder.Kept
        do throws(RunError) {
            kept = try tally.writing.withLock { _ throws(RunError) in
                try ExploreFindingsFolder(root: options.findings).keep(
                    shrunk.transcript, flow: Self.flow(of: signature.kind), slug: "explore-\(Self.slug(signature.rule.rawValue))",
                    notes: [
                        "found by accord explore --\(side.isClient ? "client" : "server") \(options.targetName) --seed \(options.seed) (scenario \(scenario.index)) and shrunk from \(outcome.transcript.stepCount) steps to \(shrunk.transcript.stepCount) in \(tries) tries",
                        "expected: \(side.isClient ? "passes with accord driver (the reference client, whose requests are the golden ones)" : "passes on the embedded reference (its golden answers are the reference's)"); on \(options.targetName) it fails \(signature)"
                            + (first.map { ": \($0.failure.message)" } ?? ""),
                    ])
            }
        } catch {
            let result = CaseResult(
                name: name, classname: "explore", outcome: .failed(shrunk.failures.map(\.failure)),
                note: "shrunk to \(shrunk.transcript.stepCount) steps but not kept: \(error)")
            return result
        }
        let replay = replayCommand(kept, shrunk: shrunk, scenario: scenario.index)
        let note =
            "found at step \(outcome.failures.first?.step ?? 0) of \(outcome.transcript.stepCount); shrunk to \(shrunk.transcript.stepCount) steps in \(tries) tries; kept as \(kept.file); replay: \(replay)"
        return CaseResult(name: name, classname: "explore", outcome: .failed(shrunk.failures.map(\.failure)), note: note)
    }

    /// The command that replays a kept finding: on the server, or through the client's driver
    /// (under the kill or storage-fault matrix when the scenario killed it or failed its storage).
    func replayCommand(_ kept: ExploreFindingsFolder.Kept, shrunk: KizunaSync.ExploreOutcome, scenario: Int) -> String {
        let run = "accord run \(options.findings) --filter '\(kept.caseID)'"
        guard case .client(let client) = side else {
            return run + " --server \(options.targetName)"
                + (kept.scenarios != nil ? " --scenarios \(options.findings)/scenarios.json" : "")
        }
        let fault = shrunk.scenario.driven?.fault ?? .none
        let transcript = shrunk.loaded.transcript
        let (matrix, targets): (String, [Int]) =
            switch fault {
            case .kill(let point, _): (" --kill-matrix", KillPoint(rawValue: point)?.targets(in: transcript) ?? [])
            case .storage(let point, _, _, _): (" --storage-faults", StorageFaultPoint(rawValue: point)?.targets(in: transcript) ?? [])
            case .none: ("", [])
            }
        let command = run + " --client '\(options.targetName)'" + matrix
        // The matrices fault a point's first instant in a case; a finding at a later one replays
        // with explore itself, with the options that shape its scenarios.
        guard let target = Self.instant(fault.instant, of: targets), target != targets.first else { return command }
        let shaping = (client.kills ? "" : " --no-kills") + (client.storageFaults ? "" : " --no-storage-faults")
        return
            "accord explore --client '\(options.targetName)' --seed \(options.seed) --budget \(scenario + 1) --jobs 1 --keep-going\(shaping) (the case fails under a \(fault), at step \(target); \(matrix.trimmingCharacters(in: .whitespaces)) faults a point's first instant only)"
    }

    /// Cuts a failing scenario down while it still fails the same way (its `fingerprint`: the same
    /// rule at the same kind of step, saying the same thing): greedy, the
    /// first smaller scenario that still fails replaces it and the cuts start over, until none
    /// does or `shrinkTries` scenarios were tried.
    func shrink(_ outcome: KizunaSync.ExploreOutcome, in tally: ExploreTally) async -> (KizunaSync.ExploreOutcome, tries: Int) {
        guard let fingerprint = outcome.fingerprint else { return (outcome, 0) }
        var best = outcome
        var tries = 0
        var smaller = true
        while smaller && tries < options.shrinkTries {
            smaller = false
            for candidate in best.scenario.reductions where candidate.size < best.scenario.size {
                guard tries < options.shrinkTries else { break }
                tries += 1
                guard case .outcome(let played) = await play(candidate, in: tally), played.fingerprint == fingerprint,
                    played.transcript.stepCount <= best.transcript.stepCount
                else { continue }
                best = played
                smaller = true
                break
            }
        }
        // What is kept fails again: a smaller scenario that failed once by a race of timing is
        // dropped for the one that was played twice.
        if tries > 0, best.scenario != outcome.scenario {
            guard case .outcome(let again) = await play(best.scenario, in: tally), again.fingerprint == fingerprint else {
                return (outcome, tries + 1)
            }
        }
        return (best, tries)
    }

    /// The corpus flow a finding belongs to, by the kind of step that failed.
    static func flow(of kind: String) -> String {
        switch kind {
        case "push", "fault drop-ack": "push"
        case "pull": "pull"
        default: "lifecycle"
        }
    }

    static func slug(_ text: String) -> String {
        let lowered = text.lowercased().map { $0.isLetter || $0.isNumber ? $0 : "-" }
        return String(lowered).split(separator: "-").joined(separator: "-")
    }
}
