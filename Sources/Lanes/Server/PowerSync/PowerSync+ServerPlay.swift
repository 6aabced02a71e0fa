import Checks
import Corpus
import Foundation
import JSON
import PowerSyncWire
import Reports
import ServerContract

extension PowerSync {
    /// One PowerSync case being played: the results so far, the PS checker fed every live
    /// exchange in order, and whether a target failure stopped the play.
    struct ServerPlay: ServerCasePlay {
        /// Plays a case: a fresh service, configured with the case's `service` settings, performs the
        /// source-side steps and answers the exchanges: one test case per exchange step; a
        /// source-side step is a test case only when the service could not take it (errored), and the
        /// suite's `source_steps` property counts them.
        static func play(_ loaded: PowerSync.LoadedTranscript, on target: any PowerSync.ServerTarget, lane: ServerLane<PowerSync>) async
            -> Played
        {
            var play = Self(transcript: loaded.transcript)
            await play.run(on: target)
            let source = SuiteResult.Property(name: "source_steps", value: "\(play.sourceSteps)")
            let left = SuiteResult.Property(name: SuiteResult.leftToLaneProperty("client"), value: "\(play.leftToClientLane)")
            return Played(cases: play.cases, properties: [source, left])
        }

        /// Playing, or stopped by a target that could not be driven (later steps are not run).
        enum Phase {
            case playing
            case stopped(String)
        }

        let transcript: PowerSync.Transcript
        var cases: [CaseResult] = []
        var checker = Checker<PowerSync.Trace>()
        var phase = Phase.playing
        /// The source-side steps performed.
        var sourceSteps = 0
        /// The client-side steps, which the client lane plays.
        var leftToClientLane = 0
        /// What the service answered each exchange step it answered, in step order (`accord diff`
        /// compares two services' answers).
        var answers: [Answer] = []

        /// A service's answer to one exchange step, as read.
        struct Answer {
            /// What was read.
            enum Body {
                /// A sync stream's live lines in arrival order, keepalives included (line k at k − 1).
                case lines([JSONValue])
                /// An endpoint's JSON answer.
                case json(JSONValue)
            }
            /// The step number.
            var n: Int
            /// The answer.
            var body: Body
        }

        init(transcript: PowerSync.Transcript) { self.transcript = transcript }

        var classname: String { CaseResult.classname(lane: "server", caseID: transcript.caseID) }

        mutating func run(on target: any PowerSync.ServerTarget) async {
            do throws(TargetError) { try await target.configure(transcript.service) } catch {
                cases.append(CaseResult(name: "configure", classname: classname, outcome: .errored("\(error)")))
                phase = .stopped("configure: \(error)")
            }
            for step in transcript.steps where step.during == nil {
                let name = "step \(step.n) \(step.label)"
                if case .stopped(let reason) = phase {
                    if case .client(let client) = step.action, !Self.isServerCase(client) { continue }
                    if !step.isSourceSide {
                        cases.append(CaseResult(name: name, classname: classname, outcome: .skipped("not run: \(reason)")))
                    }
                    continue
                }
                if target.scope == .checkpointBackend, let reason = Self.notForBackend(step) {
                    cases.append(CaseResult(name: name, classname: classname, outcome: .skipped(reason)))
                    continue
                }
                let started = ContinuousClock.now
                let before = cases.count
                await play(step, name: name, on: target)
                cases.stamp(from: before, since: started)
            }
        }

        /// Plays one step that does not happen during a stream.
        private mutating func play(_ step: PowerSync.Step, name: String, on target: any PowerSync.ServerTarget) async {
            let location = StepLocation(number: step.n, label: step.label)
            switch step.action {
            case .source, .replicate:
                await perform(step, on: target)
            case .writeCheckpoint(let request, let response):
                await checkpoint(
                    .writeCheckpoint(PowerSync.ExchangePair(request: request, response: response)), at: location, name: name, on: target)
            case .checkpointRequest(let request, let response):
                await checkpoint(
                    .checkpointRequest(PowerSync.ExchangePair(request: request, response: response)), at: location, name: name, on: target)
            case .syncStream(let request, let lines):
                await stream(step.n, request: request, golden: lines, name: name, on: target)
            case .client(let client):
                await play(client, at: location, name: name, on: target)
            }
        }

        /// Plays a client-side step by the request it puts on the service's wire (`checkpointCall`:
        /// the app's checkpoint request, or the client's target after an accepted upload, whose commit
        /// by the app backend the transcript states as a source step before it). A stream fault is not applicable (the mock plays it); a step with no request
        /// for the service is left to the client lane.
        private mutating func play(
            _ client: PowerSync.ClientAction, at location: StepLocation, name: String, on target: any PowerSync.ServerTarget
        )
            async
        {
            if let call = client.checkpointCall {
                await checkpoint(call, at: location, name: name, on: target)
            } else if case .streamFault = client {
                cases.append(
                    CaseResult(
                        name: name, classname: classname,
                        outcome: .skipped(
                            "not applicable in the server lane: a faulty stream is the client lane's mock's doing, and a service answers the request correctly"
                        )))
            } else {
                leftToClientLane += 1
            }
        }

        /// Why a step is not a checkpoint backend's to answer, or nil for one it plays: its checkpoint
        /// requests (the app's, an upload's own, a reconcile) and the source side (whose held ids it
        /// posts first).
        static func notForBackend(_ step: PowerSync.Step) -> String? {
            let reason =
                "not applicable: a checkpoint backend answers checkpoint requests only; the service answers \(step.label) (accord run --server <the service>)"
            switch step.action {
            case .syncStream, .writeCheckpoint: return reason
            case .client(let client):
                if case .streamFault = client { return reason }
                if case .writeCheckpoint? = client.checkpointCall { return reason }
                return nil
            case .checkpointRequest, .source, .replicate: return nil
            }
        }

        /// True for the client-side steps that are a server-lane test case (a request on the
        /// service's wire, or a stream fault reported not applicable).
        static func isServerCase(_ client: PowerSync.ClientAction) -> Bool {
            if case .streamFault = client { return true }
            return client.checkpointCall != nil
        }

        /// One checkpoint exchange: `GET /write-checkpoint2.json` or `POST /sync/checkpoint-request`.
        private mutating func checkpoint(
            _ call: PowerSync.CheckpointCall, at location: StepLocation, name: String, on target: any PowerSync.ServerTarget
        )
            async
        {
            let user = transcript.userID
            switch call {
            case .writeCheckpoint(let exchange):
                await endpoint(name, at: location, golden: exchange.response) { () async throws(TargetError) in
                    let answer = try await target.writeCheckpoint(query: exchange.request, userID: user)
                    return (answer, .writeCheckpoint(request: exchange.request, response: answer))
                }
            case .checkpointRequest(let exchange):
                await endpoint(name, at: location, golden: exchange.response) { () async throws(TargetError) in
                    let answer = try await target.checkpointRequest(body: exchange.request, userID: user)
                    return (answer, .checkpointRequest(request: exchange.request, response: answer))
                }
            }
        }

        /// One endpoint exchange's test case: `call` asks the service and names the answer's event;
        /// the answer goes through the PS rules and is compared with the golden one (AC-GOLDEN).
        private mutating func endpoint(
            _ name: String, at location: StepLocation, golden: JSONValue,
            _ call: () async throws(TargetError) -> (JSONValue, PowerSync.Trace.Event.Payload)
        ) async {
            do throws(TargetError) {
                let (answer, payload) = try await call()
                answers.append(Answer(n: location.number, body: .json(answer)))
                let findings = checker.observe(PowerSync.Trace.Event(location: location, payload: payload))
                record(name, findings: findings + Self.compare(answer, golden: golden, at: location, under: "response"))
            } catch {
                stop(error, name: name)
            }
        }

        /// Performs a source-side step; a failure is the step's errored test case and stops the play.
        mutating func perform(_ step: PowerSync.Step, on target: any PowerSync.ServerTarget) async {
            do throws(TargetError) {
                switch step.action {
                case .source(let commit):
                    try await target.apply(commit)
                    // The ids it says the service now holds, for PS-REQUEST-ID (no finding comes of them).
                    let location = StepLocation(number: step.n, label: step.label)
                    for held in PowerSync.Trace.Event.held(in: commit) {
                        _ = checker.observe(PowerSync.Trace.Event(location: location, payload: held))
                    }
                case .replicate: try await target.replicate()
                case .syncStream, .checkpointRequest, .writeCheckpoint, .client: return
                }
                sourceSteps += 1
            } catch {
                stop(error, name: "step \(step.n) \(step.label)")
            }
        }

        /// One exchange step's test case: passed, or failed with each finding (rules first, then AC-GOLDEN).
        mutating func record(_ name: String, findings: [Finding], note: String? = nil, scope: (Finding) -> JSONValue = { _ in .null }) {
            let ordered = findings.filter { $0.ruleID.rawValue != "AC-GOLDEN" } + findings.filter { $0.ruleID.rawValue == "AC-GOLDEN" }
            let outcome: CaseOutcome = ordered.isEmpty ? .passed : .failed(ordered.map { TranscriptCheck.failure($0, in: scope($0)) })
            var result = CaseResult(name: name, classname: classname, outcome: outcome)
            result.note = note
            cases.append(result)
        }

        mutating func stop(_ error: TargetError, name: String) {
            let reason = "\(name): \(error)"
            phase = .stopped(reason)
            cases.append(CaseResult(name: name, classname: classname, outcome: .errored(reason)))
        }

        /// AC-GOLDEN for an endpoint answer: equal to the golden body, member order aside.
        static func compare(_ live: JSONValue, golden: JSONValue, at location: StepLocation, under side: String) -> [Finding] {
            guard let pointer = live.firstDifference(from: golden) else { return [] }
            return [
                Finding(
                    "AC-GOLDEN", at: location, pointer: JSONPointer(tokens: [side]).appending(pointer),
                    "the live answer differs from the golden one", expected: golden.value(at: pointer),
                    actual: live.value(at: pointer) ?? .null
                )
            ]
        }
    }
}
