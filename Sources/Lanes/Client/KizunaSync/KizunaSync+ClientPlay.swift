import AccordDriver
import Checks
import Corpus
import Foundation
import KizunaWire
import Reports

extension KizunaSync {
    /// One case played in the client lane: the runner drives the client through its driver and
    /// serves the golden responses from the mock, judging requests, results and client state. What
    /// a lane adds around the ordinary play (the kill matrix) is its `Wrapper`, called at its seams.
    struct ClientPlay<Wrapper: ClientPlayWrapper> {
        /// A driver answer, or why there is none.
        typealias Answer = DriverSession.Answer

        let loaded: LoadedTranscript
        let plan: ClientCasePlan
        /// The driver I/O: channel, request ids, timeout.
        var session: DriverSession
        let mock: KizunaSync.Mock
        var cases: [CaseResult] = []
        /// Whether the play goes on, or why the steps after are not run.
        var progress = Progress.playing
        /// The parts of the protocol the driver's hello declared; nil when it declared none.
        var declaredParts: [String]?
        /// Why the driver refused part of the case as unsupported, when it did (`refusedAsUnsupported`).
        var unsupported: String?
        /// The outbox depth the driver last reported, when known.
        var depth: Int?
        /// What the golden pages say the client has committed, and the rest the judge keeps.
        var judge: KizunaSync.ClientJudge
        /// The last step played, for naming requests that arrive between steps.
        var lastStep: String?
        /// What wraps this play (`Unwrapped` in the ordinary lane), called at its seams.
        var wrapper: Wrapper
        /// The JUnit classname of the case's test cases, as the wrapper names them.
        let classname: String

        init(
            loaded: LoadedTranscript, plan: ClientCasePlan, channel: any DriverChannel, mock: KizunaSync.Mock, timeout: Duration,
            wrapper: Wrapper
        ) {
            self.loaded = loaded
            self.plan = plan
            self.session = DriverSession(channel: channel, timeout: timeout)
            self.mock = mock
            self.wrapper = wrapper
            self.classname = wrapper.classname(of: loaded.transcript)
            self.judge = KizunaSync.ClientJudge(checkpoint: plan.checkpoint)
        }

        /// Where a play stands: it plays its steps until something stops it, and then reports the
        /// steps after as not run, with the reason (the last one given).
        enum Progress: Sendable, Equatable {
            case playing
            case stopped(String)
        }

        /// Why the play stopped, or nil while it plays.
        var stopped: String? { if case .stopped(let reason) = progress { reason } else { nil } }

        var transcript: Transcript { loaded.transcript }
        var timeout: Duration { session.timeout }

        /// Plays the whole case: hello, open, the steps, the postconditions, close.
        mutating func run(store: String, jwt: String, apikey: String) async {
            switch await session.call(.hello(protocolVersion: DriverRequest.protocolVersion), timeout: timeout) {
            case .result(.hello(let hello)):
                declaredParts = hello.parts
                let missing = plan.needs.subtracting(hello.capabilities).sorted()
                if let declared = hello.parts, let parts = plan.missingParts(declared) {
                    progress = .stopped(
                        "not applicable: the driver plays \(declared.isEmpty ? "no part" : declared.joined(separator: ", ")) (hello's parts); this case also needs \(parts)"
                    )
                    cases.append(CaseResult(name: "hello", classname: classname, outcome: .skipped(stopped ?? "")))
                    _ = await session.finish(timeout: .seconds(5))
                    return
                }
                if !missing.isEmpty {
                    progress = .stopped("unsupported: the driver lacks the capabilities \(missing.joined(separator: ", "))")
                    cases.append(CaseResult(name: "hello", classname: classname, outcome: .skipped(stopped ?? "")))
                    _ = await session.finish(timeout: .seconds(5))
                    return
                }
            case let other:
                driverBroken(other, name: "hello")
            }
            if stopped == nil {
                let open = OpenRequest(
                    context: transcript.context, store: store, baseURL: mock.baseURL, apikey: apikey, jwt: jwt, checkpoint: plan.checkpoint,
                    pullLimit: plan.pullLimit)
                wrapper.opened(open)
                switch await session.call(.open(open)) {
                case .result: break
                case let other: driverBroken(other, name: "open")
                }
            }
            for step in transcript.steps {
                let name = "step \(step.n) \(step.label)"
                if let stopped {
                    if step.isClientVisible(to: transcript.context) {
                        cases.append(CaseResult(name: name, classname: classname, outcome: .skipped("not run: \(stopped)")))
                    }
                    continue
                }
                let started = ContinuousClock.now
                let before = cases.count
                await play(step, name: name)
                cases.stamp(from: before, since: started)
                if step.isClientVisible(to: transcript.context) { lastStep = name }
            }
            let started = ContinuousClock.now
            let before = cases.count
            await postconditions()
            cases.stamp(from: before, since: started)
            let finishStarted = ContinuousClock.now
            let beforeFinish = cases.count
            await Wrapper.finish(&self)
            cases.stamp(from: beforeFinish, since: finishStarted)
            if stopped == nil {
                switch await session.call(.close) {
                case .result:
                    if let ending = await session.finish(timeout: .seconds(5)) {
                        cases.append(fail("close", .driver, "close: \(ending)\(session.tail)"))
                    }
                    reportStrays(before: "close")
                case let other:
                    driverBroken(other, name: "close")
                }
            } else {
                await session.kill()
            }
        }

        /// Records a missing or wrong answer to a session request and stops the case.
        mutating func driverBroken(_ answer: Answer, name: String) {
            let message: String
            switch answer {
            case .broken(let reason): message = reason
            case .failure(let failure): message = "\(name) failed: \(failure)"
            case .result(let result): message = "\(name) was answered as \(result.op.rawValue)"
            }
            cases.append(fail(name, .driver, "\(name): \(ObligationID.driver) \(message)"))
            progress = .stopped("\(name) failed")
        }

        /// A failed case result with one failure.
        func fail(_ name: String, _ rule: ObligationID, _ message: String, body: String = "") -> CaseResult {
            CaseResult(name: name, classname: classname, outcome: .failed([Failure(rule, message: message, body: body)]))
        }
    }
}

extension Step {
    /// Whether the client lane plays and reports this step for the client of `context`: server-side
    /// steps (another actor's changes, reaps) and another client's RPCs (a recorded session's other
    /// devices) are the server lane's.
    func isClientVisible(to context: CaseContext) -> Bool {
        switch action {
        case .server, .reap: false
        case .rpc(let exchange): !exchange.isAnotherClient(than: context)
        default: true
        }
    }
}
