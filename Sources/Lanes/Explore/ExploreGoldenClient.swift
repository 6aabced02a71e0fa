import AccordDriver
import Corpus
import Explore
import Foundation
import Harness
import JSON
import KizunaWire
import ServerContract

/// The reference client behind its driver, as `accord explore --client` realizes a scenario's
/// device 0 with it: a fresh store and a loopback mock whose every answer waits until the
/// realizer has asked the reference server (`MockReply.deferred`), so that the golden requests
/// are what a correct client sends and the golden answers what the reference says to them. A
/// driver that breaks is the run's setup problem, never a finding.
actor ExploreGoldenClient: ExploreClient {
    private var session: DriverSession
    private let mock: KizunaSync.Mock
    private let folder: URL

    private init(session: DriverSession, mock: KizunaSync.Mock, folder: URL) {
        self.session = session
        self.mock = mock
        self.folder = folder
    }

    /// Realizes a client scenario with the reference client on a fresh store and a fresh
    /// reference. The golden side failing is no finding of the client under test: a realization
    /// that fails (a driver slower than its own timeout on a loaded machine) is tried once more.
    static func realize(
        _ scenario: KizunaSync.ExploreScenario, caseID: String, launch: DriverLauncher, timeout: Duration,
        reference: () throws(TargetError) -> any KizunaSync.ServerTarget
    ) async throws(TargetError) -> KizunaSync.ExploreTranscript {
        var attempt = 0
        while true {
            attempt += 1
            let golden = try await start(scenario, launch: launch, timeout: timeout)
            do throws(TargetError) {
                let realized = try await KizunaSync.ExploreRealizer.realize(scenario, caseID: caseID, on: try reference(), client: golden)
                await golden.close()
                return realized
            } catch {
                await golden.close()
                if attempt >= 2 { throw error }
            }
        }
    }

    /// Starts the driver on a fresh store opened as the scenario's device 0.
    static func start(_ scenario: KizunaSync.ExploreScenario, launch: DriverLauncher, timeout: Duration) async throws(TargetError)
        -> ExploreGoldenClient
    {
        let context: CaseContext
        do {
            context = try CaseContext(json: .object(KizunaSync.ExploreRealizer.context(of: scenario)), at: JSONPointer(tokens: ["context"]))
        } catch {
            throw TargetError.refused("scenario \(scenario.index) has a context the corpus grammar refuses: \(error)")
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accord-explore-golden-\(UUID().uuidString)")
        let mock: KizunaSync.Mock
        let channel: any DriverChannel
        do throws(RunError) {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw RunError.usage("cannot create \(folder.path): \(error.localizedDescription)")
            }
            mock = try await KizunaSync.startMock(for: context)
            do throws(RunError) { channel = try launch() } catch {
                await mock.stop()
                throw error
            }
        } catch {
            try? FileManager.default.removeItem(at: folder)
            throw TargetError.unreachable("the reference client's driver did not start: \(error)")
        }
        let client = ExploreGoldenClient(session: DriverSession(channel: channel, timeout: timeout), mock: mock, folder: folder)
        let open = OpenRequest(
            context: context, store: folder.appendingPathComponent("store").path, baseURL: mock.baseURL, apikey: KizunaSync.apikey,
            jwt: mock.expected.jwt, pullLimit: scenario.driven?.pullLimit)
        do throws(TargetError) {
            try await client.expect(.hello(protocolVersion: DriverRequest.protocolVersion), "hello")
            try await client.expect(.open(open), "open")
        } catch {
            await client.close()
            throw error
        }
        return client
    }

    /// One request and its answer (the session's request ids go on).
    private func call(_ body: DriverRequest.Body, timeout: Duration? = nil) async -> DriverSession.Answer {
        var session = self.session
        let answer = await session.call(body, timeout: timeout)
        self.session = session
        return answer
    }

    private func expect(_ body: DriverRequest.Body, _ name: String) async throws(TargetError) {
        if case .broken(let reason) = await call(body) { throw Self.broken(name, reason) }
    }

    func write(_ local: JSONObject, atomicGroup: String?) async throws(TargetError) -> String? {
        var json = local
        json["n"] = 1
        guard let step = try? Step(json: .object(json), at: .root), case .local(let write) = step.action else {
            throw TargetError.refused("explore wrote a local step the corpus grammar refuses: \(CanonicalJSON.compact(.object(local)))")
        }
        switch await call(.write(WriteRequest(write, atomicGroup: atomicGroup))) {
        case .result: return nil
        case .failure(let failure): return failure.code
        case .broken(let reason): throw Self.broken("write", reason)
        }
    }

    func send(_ rpc: RPCKind, serve: @escaping ExploreServe) async throws(TargetError) -> ExploreSent? {
        let reply = DeferredReply()
        mock.expect(.init(rpc: rpc, golden: nil, answer: .deferred(reply)))
        let before = mock.matchedCount
        let mock = self.mock
        // Reads the request when it arrives, asks the reference, and hands the mock its answer.
        let watcher = Task { () -> Result<ExploreSent, TargetError>? in
            await mock.wait(until: .matched, passes: before)
            guard !Task.isCancelled else { return nil }
            guard let received = mock.take().last, received.mismatch == nil, let body = received.body else {
                reply.give(nil)
                return .failure(TargetError.refused("the reference client sent a request explore cannot read"))
            }
            do throws(TargetError) {
                let served = try await serve(body)
                switch served {
                case .drop: reply.give(nil)
                case .reply(let answer): reply.give(KizunaSync.Responder.reply(status: answer.status, body: answer.body))
                }
                return .success(ExploreSent(request: body, served: served))
            } catch {
                reply.give(nil)
                return .failure(error)
            }
        }
        let answer = await call(rpc == .push ? .push : .pull(PullOptions(maxPages: 1)))
        watcher.cancel()
        // A connection still waiting (the driver gave up first) closes now, not after a minute.
        reply.give(nil)
        let sent = await watcher.value
        mock.expect(nil)
        if case .broken(let reason) = answer { throw Self.broken(rpc.rawValue, reason) }
        switch sent {
        case .success(let sent):
            // A client that gave up on an answer the realizer wrote down as given would make the
            // transcript say it consumed what it never saw.
            if case .reply(let served) = sent.served, (200..<300).contains(served.status), case .failure(let failure) = answer,
                failure.code == "REMOTE"
            {
                throw TargetError.refused("the reference client reported REMOTE for an answer it was given: \(failure)")
            }
            return sent
        case .failure(let error): throw error
        case nil: return nil
        }
    }

    func state() async throws(TargetError) -> StateResult {
        switch await call(.state(StateOptions())) {
        case .result(.state(let state)): return state
        case .broken(let reason): throw Self.broken("state", reason)
        case let other: throw TargetError.refused("the reference client's driver answered state with \(other)")
        }
    }

    /// Closes the driver and the mock and removes the store.
    func close() async {
        if case .result = await call(.close, timeout: .seconds(5)) {
            _ = await session.finish(timeout: .seconds(5))
        } else {
            await session.kill()
        }
        mock.release()
        await mock.stop()
        try? FileManager.default.removeItem(at: folder)
    }

    private static func broken(_ name: String, _ reason: String) -> TargetError {
        TargetError.unreachable("the reference client's driver, at \(name): \(reason)")
    }
}
