import AccordDriver
import Checks
import Corpus
import Foundation
import Harness
import JSON
import PowerSyncWire
import Reports

extension PowerSync {
    /// One PowerSync case played through a driver: hello (which must say profile powersync),
    /// attach, each step as its driver op with the mock primed for the requests the step expects,
    /// and close. The first failing step stops the case; later steps are reported skipped.
    struct ClientPlay {
        let transcript: PowerSync.Transcript
        let classname: String
        var session: DriverSession
        let mock: PowerSync.Mock
        var judge = PowerSync.ClientJudge()
        /// The kill matrix's seam and how to start the driver again; nil outside the kill matrix.
        var kill: (hook: KillHook, relaunch: DriverLauncher)?
        private(set) var cases: [CaseResult] = []
        private var store = ""

        init(
            transcript: PowerSync.Transcript, classname: String, session: DriverSession, mock: PowerSync.Mock,
            kill: (hook: KillHook, relaunch: DriverLauncher)? = nil
        ) {
            self.transcript = transcript
            self.classname = classname
            self.session = session
            self.mock = mock
            self.kill = kill
        }

        mutating func run(store: String) async {
            self.store = store
            switch await session.call(.hello(protocolVersion: DriverRequest.protocolVersion)) {
            case .result(.hello(let hello)) where hello.profile == .powerSync: break
            case .result(.hello(let hello)):
                cases.append(
                    CaseResult(
                        name: "client lane", classname: classname,
                        outcome: .skipped(
                            "unsupported: the driver speaks the \(hello.profile.rawValue) profile; PowerSync cases need a driver whose hello says \"profile\": \"powersync\" (accord driver --profile powersync)"
                        )))
                _ = await session.finish(timeout: .seconds(5))
                return
            case let other:
                await broken("hello: \(PowerSync.ClientJudge.describe(other))")
                return
            }
            if let why = await attach() {
                await broken("attach: \(why)")
                return
            }
            var failed = false
            var killed = false
            // The client's reconcile at connect, played within the next step that reaches the service.
            var reconcile: PowerSync.Step?
            // A driver started again after a kill is a new connection: it reconciles before it next reaches the service.
            var restarted = false
            // Source-side steps set a service's state; here the mock is the service, so the server lane plays them.
            for step in transcript.steps where !step.isSourceSide {
                let name = "step \(step.n) \(step.label)"
                if failed {
                    cases.append(CaseResult(name: name, classname: classname, outcome: .skipped("an earlier step failed")))
                    continue
                }
                if step.reconcile {
                    reconcile = step
                    continue
                }
                if let reason = PowerSync.notApplicable(step) {
                    cases.append(CaseResult(name: name, classname: classname, outcome: .skipped(reason)))
                    continue
                }
                let connecting = Self.reachesService(step) ? reconcile : nil
                if connecting != nil { reconcile = nil }
                let started = ContinuousClock.now
                var (failures, reconciled) = await play(step, reconcile: connecting, restarted: restarted)
                if Self.reachesService(step) { restarted = false }
                if let kill, !killed, failures.first?.died == true {
                    killed = true
                    let restart = await restart(kill.relaunch)
                    cases.append(
                        CaseResult(
                            name: "step \(step.n) kill @ \(kill.hook.rawValue)", classname: classname,
                            outcome: restart.map { .errored($0) } ?? .passed))
                    if restart != nil { return }
                    // Applied and committed before the kill: the step's effect is done. Else it is replayed.
                    if kill.hook == .afterCheckpointApplied {
                        failures = Self.observed(step, judge: &judge)
                    } else {
                        (failures, reconciled) = await play(step, reconcile: connecting, restarted: true)
                    }
                    restarted = kill.hook == .afterCheckpointApplied || !Self.reachesService(step)
                }
                if let connecting {
                    let outcome: CaseOutcome = reconciled.isEmpty ? .passed : .failed(reconciled)
                    cases.append(
                        CaseResult(name: "step \(connecting.n) \(connecting.label) (reconcile)", classname: classname, outcome: outcome))
                }
                let outcome: CaseOutcome = failures.isEmpty ? .passed : .failed(failures.map(\.failure))
                cases.append(CaseResult(name: name, classname: classname, outcome: outcome, time: RunClock.seconds(since: started)))
                failed = !failures.isEmpty || !reconciled.isEmpty
            }
            if let reconcile {
                cases.append(
                    CaseResult(
                        name: "step \(reconcile.n) \(reconcile.label) (reconcile)", classname: classname,
                        outcome: .skipped("not played: no later step connects the client to the service")))
            }
            if let kill, !killed {
                cases.append(
                    CaseResult(
                        name: "kill @ \(kill.hook.rawValue)", classname: classname,
                        outcome: .skipped("not applicable: the driver never reached \(kill.hook.rawValue) in this case")))
            }
            _ = await session.call(.close)
            if let ending = await session.finish(timeout: .seconds(5)) {
                cases.append(CaseResult(name: "driver exit", classname: classname, outcome: .errored(ending)))
            }
        }

        /// A finding of a step, or the driver's death at it.
        private struct StepFailure {
            var failure: Failure
            var died: Bool
        }

        /// Plays a step, with the client's reconcile at connect first when the step connects it: the
        /// golden `reconcile` step, or after a restart (`restarted`, requests mode) one the golden run
        /// did not need, taken at any id and judged with the step.
        /// - Returns: the step's findings, and the golden reconcile's.
        private mutating func play(_ step: PowerSync.Step, reconcile: PowerSync.Step?, restarted: Bool) async -> ([StepFailure], [Failure])
        {
            var (body, expectations, extra) = Self.plan(step)
            let path = PowerSync.Surface.Route.checkpointRequest.path
            if let reconcile, case .checkpointRequest(let request, let response) = reconcile.action {
                var expected = Self.json(path, request, response)
                expected.atLeast = restarted
                expectations.insert(expected, at: 0)
            } else if restarted, transcript.checkpointMode.allocatesRequests, Self.reachesService(step) {
                var expected = Self.json(
                    path, ["checkpoint_request_id": "1", "client_id": .string(transcript.clientID)],
                    ["data": ["checkpoint_request_id": "1"]])
                expected.atLeast = true
                expectations.insert(expected, at: 0)
            }
            if transcript.checkpointMode == .custom { expectations = expectations.map(Self.toBackend) }
            mock.expect(expectations)
            let answer = await session.call(body, timeout: extra.map { session.timeout + $0 })
            var (received, missing) = mock.settle()
            var reconciled: [Failure] = []
            if let reconcile {
                // The first request answered the reconcile; if none came, the reconcile is the first missing.
                reconciled =
                    received.isEmpty
                    ? judge.judgeRequests(reconcile, received: [], missing: missing.isEmpty ? [] : [missing.removeFirst()])
                    : judge.judgeRequests(reconcile, received: [received.removeFirst()], missing: [])
            }
            if case .broken(let why) = answer {
                let failure = Failure(
                    .powerSyncExchange, message: "\(ObligationID.powerSyncExchange): step \(step.n) \(step.label): \(why)")
                return ([StepFailure(failure: failure, died: true)], [])
            }
            let failures = judge.judgeRequests(step, received: received, missing: missing) + judge.judgeAnswer(step, answer)
            judge.observe(step)
            return (failures.map { StepFailure(failure: $0, died: false) }, reconciled)
        }

        /// A checkpoint request as a client in custom mode sends it: to the app's backend, with the
        /// backend's credential, answered without the service's envelope.
        static func toBackend(_ expected: PowerSync.Mock.Expectation) -> PowerSync.Mock.Expectation {
            guard expected.path == PowerSync.Surface.Route.checkpointRequest.path else { return expected }
            var backend = expected
            backend.path = PowerSync.Surface.checkpointBackendPath
            backend.token = PowerSync.backendToken
            if let json = try? JSONParser.parse(expected.body), let answer = try? CheckpointRequestAnswer(json: json) {
                backend.body = Array(CanonicalJSON.compact(answer.backendJSON).utf8)
            }
            return backend
        }

        /// Whether a step's op reaches the service, so that a client in requests mode reconciles first:
        /// a stream, the app's checkpoint request, an upload (whose target needs an id).
        static func reachesService(_ step: PowerSync.Step) -> Bool {
            switch step.action {
            case .syncStream, .client(.requestCheckpoint), .client(.upload), .client(.streamFault): true
            default: false
            }
        }

        private static func observed(_ step: PowerSync.Step, judge: inout PowerSync.ClientJudge) -> [StepFailure] {
            judge.observe(step)
            return []
        }

        private mutating func attach() async -> String? {
            let attach = AttachRequest(
                store: store, baseURL: mock.baseURL, token: PowerSync.token, userID: transcript.userID, clientID: transcript.clientID,
                checkpointMode: transcript.checkpointMode,
                checkpointBackend: transcript.checkpointMode == .custom
                    ? PowerSync.CheckpointBackend(
                        url: mock.baseURL + PowerSync.Surface.checkpointBackendPath, token: PowerSync.backendToken) : nil)
            let answer = await session.call(.powerSync(.attach(attach)))
            return answer.isResult ? nil : PowerSync.ClientJudge.describe(answer)
        }

        /// Starts the driver again on the same store after a kill; why it failed, or nil.
        private mutating func restart(_ relaunch: DriverLauncher) async -> String? {
            _ = await session.finish(timeout: .seconds(5))
            do throws(RunError) {
                session.replace(with: try relaunch())
            } catch {
                return "the driver did not start again: \(error)"
            }
            guard case .result(.hello) = await session.call(.hello(protocolVersion: DriverRequest.protocolVersion)) else {
                return "the restarted driver did not answer hello"
            }
            return await attach().map { "the restarted driver did not attach its store: \($0)" }
        }

        /// The driver op a step is, the requests the mock expects meanwhile, and the extra time the op may take.
        static func plan(_ step: PowerSync.Step) -> (DriverRequest.Body, [PowerSync.Mock.Expectation], Duration?) {
            func stream(_ request: JSONValue, _ lines: [JSONValue]) -> PowerSync.Mock.Expectation {
                PowerSync.Mock.Expectation(
                    path: "/sync/stream", golden: request, status: 200,
                    body: Array(lines.map { CanonicalJSON.compact($0) + "\n" }.joined().utf8), contentType: "application/x-ndjson")
            }
            switch step.action {
            case .syncStream(let request, let lines): return (.powerSync(.sync), [stream(request, lines)], nil)
            case .checkpointRequest, .writeCheckpoint, .source, .replicate: return (.powerSync(.clientState(tables: nil)), [], nil)
            case .client(let client):
                switch client {
                case .localWrite(let write, _): return (.powerSync(.localWrite(write)), [], nil)
                case .upload(let request, let response, let target):
                    let status = response["status"]?.numberValue?.intValue ?? 200
                    var expected = [json("/accord/upload", request, .object(JSONObject()), status: status)]
                    switch target {
                    case .checkpointRequest(let own)?: expected.append(json("/sync/checkpoint-request", own.request, own.response))
                    case .writeCheckpoint(let written)?:
                        var get = json("/write-checkpoint2.json", written.request, written.response)
                        get.method = "GET"
                        expected.append(get)
                    case nil: break
                    }
                    return (.powerSync(.upload), expected, nil)
                case .requestCheckpoint(let request, let response):
                    return (.powerSync(.requestCheckpoint), [json("/sync/checkpoint-request", request, response)], nil)
                case .requestCheckpointRefused: return (.powerSync(.requestCheckpoint), [], nil)
                case .waitForSync(let id, let timeout, _):
                    return (
                        .powerSync(.waitForSync(WaitRequest(checkpointRequestID: id, timeoutMilliseconds: timeout))), [],
                        .milliseconds(timeout)
                    )
                case .disconnect: return (.powerSync(.disconnect), [], nil)
                case .reconnect: return (.powerSync(.reconnect), [], nil)
                case .localReset: return (.powerSync(.localReset), [], nil)
                case .streamFault(let request, .checksumMismatch(let lines)): return (.powerSync(.sync), [stream(request, lines)], nil)
                case .streamFault(let request, .httpError(let status)):
                    return (
                        .powerSync(.sync),
                        [json("/sync/stream", request, ["error": "accord: a download error on purpose"], status: status)],
                        nil
                    )
                case .assertClient: return (.powerSync(.clientState(tables: nil)), [], nil)
                }
            }
        }

        /// A JSON exchange the mock expects.
        static func json(_ path: String, _ request: JSONValue, _ response: JSONValue, status: Int = 200) -> PowerSync.Mock.Expectation {
            PowerSync.Mock.Expectation(
                path: path, golden: request, status: status, body: Array(CanonicalJSON.compact(response).utf8),
                contentType: "application/json")
        }

        private mutating func broken(_ why: String) async {
            cases.append(CaseResult(name: "driver", classname: classname, outcome: .errored(why)))
            _ = await session.finish(timeout: .seconds(5))
        }
    }
}

extension DriverSession.Answer {
    /// Whether the driver answered with a result.
    var isResult: Bool {
        if case .result = self { return true }
        return false
    }
}
