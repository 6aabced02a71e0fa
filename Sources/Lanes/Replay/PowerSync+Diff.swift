import JSON
import PowerSyncWire
import Reports
import ServerContract

extension PowerSync {
    /// `accord diff` for a PowerSync recording: the recording converted as the live lanes convert it
    /// (its fixture calls the source steps), played on a fresh service of each target with the
    /// server lane's play (`PowerSync.ServerPlay`), and the two live answers of every exchange step
    /// compared. Stream lines are compared one by one in their normal form (`SyncLineComparison`,
    /// as AC-GOLDEN compares them), `token_expires_in` lines left out; each difference is an `AC-DIFF`
    /// failure naming the step, the NDJSON line on each side and the JSON pointer in the line.
    struct Diff {
        /// The converted recording.
        let loaded: PowerSync.LoadedTranscript
        /// The two targets' names.
        let names: (String, String)
        /// The suite's test cases' classname.
        let classname: String

        /// The test cases: one per exchange step.
        /// - Parameters:
        ///   - makeA: makes the first target's service.
        ///   - makeB: makes the second's.
        /// - Returns: the cases, in step order.
        func cases(makeA: PowerSync.TargetFactory, makeB: PowerSync.TargetFactory) async -> [CaseResult] {
            let a = await play(makeA)
            let b = await play(makeB)
            let exchanges = loaded.transcript.steps.filter { step in
                switch step.action {
                case .syncStream, .checkpointRequest, .writeCheckpoint: true
                case .source, .replicate, .client: false
                }
            }
            return exchanges.map { step in
                let name = "step \(step.n) \(step.label)"
                switch (a.answer(step.n), b.answer(step.n)) {
                case (.some(let answerA), .some(let answerB)):
                    let failures = Self.compare(answerA, answerB, label: name, names: names)
                    return CaseResult(name: name, classname: classname, outcome: failures.isEmpty ? .passed : .failed(failures))
                case (nil, _):
                    return CaseResult(name: name, classname: classname, outcome: a.missing(name, target: names.0))
                case (_, nil):
                    return CaseResult(name: name, classname: classname, outcome: b.missing(name, target: names.1))
                }
            }
        }

        /// One target's play of the transcript; a target that cannot be made errs every step.
        private func play(_ make: PowerSync.TargetFactory) async -> Played {
            let target: any PowerSync.ServerTarget
            do throws(TargetError) { target = try make() } catch { return Played(play: nil, failure: "\(error)") }
            var play = PowerSync.ServerPlay(transcript: loaded.transcript)
            await play.run(on: target)
            return Played(play: play, failure: nil)
        }

        /// What one target answered, and why a step it did not answer is missing.
        private struct Played {
            let play: PowerSync.ServerPlay?
            let failure: String?

            func answer(_ n: Int) -> PowerSync.ServerPlay.Answer? { play?.answers.first { $0.n == n } }

            /// The outcome of a step this target did not answer: errored where the target failed
            /// at that step (or could not be made), skipped for the steps a failure left unplayed.
            func missing(_ name: String, target: String) -> CaseOutcome {
                if let failure { return .errored("\(target): \(failure)") }
                if let errored = play?.cases.first(where: { $0.name == name }), case .errored(let reason) = errored.outcome {
                    return .errored("\(target): \(reason)")
                }
                if case .stopped(let reason) = play?.phase { return .skipped("not run on \(target): \(reason)") }
                return .errored("\(target): the step was not answered")
            }
        }

        /// The differences between two answers of one step, at most `DiffRun.maximumListed` per step.
        static func compare(
            _ a: PowerSync.ServerPlay.Answer, _ b: PowerSync.ServerPlay.Answer, label: String, names: (String, String)
        ) -> [Failure] {
            var failures: [Failure] = []
            var hidden = 0
            func add(_ message: String, _ valueA: JSONValue?, _ valueB: JSONValue?) {
                guard failures.count < DiffRun.maximumListed else {
                    hidden += 1
                    return
                }
                failures.append(
                    Failure(
                        ruleID: "AC-DIFF", message: "\(label)\(message)",
                        body: "\(names.0): " + CanonicalJSON.compact(valueA ?? .null) + "\n\(names.1): "
                            + CanonicalJSON.compact(valueB ?? .null))
                )
            }
            switch (a.body, b.body) {
            case (.lines(let linesA), .lines(let linesB)):
                let compared = (Self.numbered(linesA), Self.numbered(linesB))
                for (lineA, lineB) in zip(compared.0, compared.1) {
                    let at =
                        lineA.number == lineB.number
                        ? " NDJSON line \(lineA.number)"
                        : " NDJSON line \(lineA.number) (\(names.0)), line \(lineB.number) (\(names.1))"
                    for pointer in SyncLineComparison.differences(lineA.line, lineB.line) {
                        let normalA = SyncLineComparison.normal(lineA.line)
                        let normalB = SyncLineComparison.normal(lineB.line)
                        add(
                            "\(at): lines differ at \(BindingViolation.show(pointer))", normalA.value(at: pointer),
                            normalB.value(at: pointer))
                    }
                }
                if compared.0.count != compared.1.count {
                    let (longer, name) = compared.0.count > compared.1.count ? (compared.0, names.0) : (compared.1, names.1)
                    let extra = longer[min(compared.0.count, compared.1.count)]
                    add(
                        " NDJSON line \(extra.number): only \(name) sent it (\(compared.0.count) lines compared on \(names.0), \(compared.1.count) on \(names.1))",
                        compared.0.count > compared.1.count ? extra.line : nil, compared.1.count > compared.0.count ? extra.line : nil)
                }
            case (.json(let bodyA), .json(let bodyB)):
                for pointer in bodyA.differences(from: bodyB) {
                    add(": answers differ at \(BindingViolation.show(pointer))", bodyA.value(at: pointer), bodyB.value(at: pointer))
                }
            case (.lines, .json), (.json, .lines):
                add(": one target answered a stream, the other a JSON body", nil, nil)
            }
            if hidden > 0 { failures.append(Failure(ruleID: "AC-DIFF", message: "\(label): \(hidden) more differences not listed")) }
            return failures
        }

        /// A stream's lines with their 1-based NDJSON line numbers, `token_expires_in` lines left
        /// out (their values are the clock's and the token's, as in AC-GOLDEN).
        static func numbered(_ lines: [JSONValue]) -> [(number: Int, line: JSONValue)] {
            lines.enumerated().filter { !SyncLineComparison.isKeepalive($0.element) }.map { ($0.offset + 1, $0.element) }
        }
    }
}
