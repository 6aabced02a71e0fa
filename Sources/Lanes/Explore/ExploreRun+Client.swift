import AccordDriver
import Corpus
import Explore
import Harness
import JSON
import KizunaWire
import Reports
import ServerContract

extension ExploreRun {
    /// Asks both drivers hello and sets up the faults scenarios may play the driver under: the
    /// kill matrix's points when the driver announces `kill-safe`, the storage-fault matrix's
    /// points and variants under libfiu.
    /// - Throws: `RunError.setup` when a driver does not answer hello or libfiu cannot be loaded.
    func prepareClient() async throws(RunError) -> ExploreTally {
        guard case .client(let client) = side else { return ExploreTally(budget: options.budget) }
        let launch = client.launch
        let hello = try await DriverPreflight.hello(
            { () throws(RunError) in try launch([:]) }, command: client.name, timeout: client.requestTimeout)
        _ = try await DriverPreflight.hello(client.golden, command: "accord driver", timeout: client.requestTimeout)
        var faults = KizunaSync.ExploreClientFaults()
        if client.kills && hello.capabilities.contains(DriverCapability.killSafe) {
            faults.kills = KillPoint.allCases.map(\.rawValue)
            faults.firstInstantOnly = Set(KillPoint.allCases.filter(\.hasDriverHook).map(\.rawValue))
        }
        var storage: StorageFailures?
        if client.storageFaults {
            storage = try await StorageFailures()
            faults.storagePoints = StorageFaultPoint.allCases.map(\.rawValue)
            faults.storageVariants = StorageFaultVariant.all.map { .init(errno: $0.errno.rawValue, continuation: $0.continuation.rawValue) }
        }
        return ExploreTally(
            budget: options.budget, progress: options.run.console.progress && !options.run.console.quiet, clientFaults: faults,
            storage: storage)
    }

    package func release(_ tally: ExploreTally) {
        tally.storage?.remove()
    }

    /// Realizes a client scenario with the reference client's driver on a fresh reference, plays
    /// the transcript through the driver under test (killed or with its storage failing, as the
    /// scenario says), and reads the client lane's verdicts.
    func play(_ scenario: KizunaSync.ExploreScenario, client: ClientSide, in tally: ExploreTally, caseID: String) async
        -> KizunaSync.ExplorePlayed
    {
        let realized: KizunaSync.ExploreTranscript
        let noOpWrites = tally.noOpWrites
        let makeReference = self.makeReference
        do throws(TargetError) {
            realized = try await ExploreGoldenClient.realize(
                scenario, caseID: caseID, launch: client.golden, timeout: client.requestTimeout,
                reference: { () throws(TargetError) in try makeReference(noOpWrites) })
        } catch {
            return .problem("the reference client could not realize scenario \(scenario.index): \(error)")
        }
        let loaded: LoadedTranscript
        do throws(CorpusError) {
            loaded = try LoadedTranscript(raw: CanonicalJSON.render(realized.json), file: "\(caseID).json")
        } catch {
            return .problem("scenario \(scenario.index) realized to a transcript the corpus grammar refuses: \(error)")
        }
        if let reason = realized.unplayable {
            // Not a scenario a transcript can hold: nothing is played, nothing is found.
            return .outcome(
                KizunaSync.ExploreOutcome(
                    scenario: scenario, transcript: realized, loaded: loaded, failures: [], exchanges: 0, compared: 0, devicesJudged: 0,
                    unjudged: ["not played: \(reason)"]))
        }
        let suite = await drive(loaded, under: scenario.driven?.fault ?? .none, client: client, tally: tally)
        var failures: [KizunaSync.ExploreOutcome.Located] = []
        var exchanges = 0
        var unjudged = realized.unasserted.map { [$0] } ?? []
        for result in suite.cases {
            let (step, kind) = Self.place(of: result.name)
            switch result.outcome {
            case .failed(let list): failures += list.map { .init(step: step, kind: kind, failure: $0) }
            case .errored(let reason): return .problem("scenario \(scenario.index), \(result.name): \(reason)")
            case .skipped(let reason) where result.name == "hello" || result.name.hasSuffix("lane"):
                unjudged.append("the driver did not play it: \(reason)")
            case .passed where result.observed != nil: exchanges += 1
            case .passed, .skipped: continue
            }
        }
        // The closing assert judged the client when nothing left it out and nothing failed before.
        let asserted = unjudged.isEmpty && failures.isEmpty
        return .outcome(
            KizunaSync.ExploreOutcome(
                scenario: scenario, transcript: realized, loaded: loaded, failures: failures, exchanges: exchanges, compared: exchanges,
                devicesJudged: asserted ? 1 : 0, unjudged: unjudged))
    }

    /// The `instant`-th of a point's steps, counted round; nil when the transcript has none.
    static func instant(_ instant: Int, of targets: [Int]) -> Int? {
        targets.isEmpty ? nil : targets[instant % targets.count]
    }

    /// Plays a realized client scenario through the driver under test: plainly, or killed at a
    /// kill point, or with its storage failing at a storage-fault point, as the kill and
    /// storage-fault matrices play one of their units. A fault whose point the transcript never
    /// reaches is played plainly.
    func drive(_ loaded: LoadedTranscript, under fault: KizunaSync.ExploreClientFault, client: ClientSide, tally: ExploreTally) async
        -> SuiteResult
    {
        var options = ClientRun.Options(paths: [], clientName: client.name)
        options.requestTimeout = client.requestTimeout
        let launch = client.launch
        switch fault {
        case .kill(let name, let instant):
            if let point = KillPoint(rawValue: name), let target = Self.instant(instant, of: point.targets(in: loaded.transcript)) {
                return await KillMatrixRun(options: options, launch: launch).play(.kizunaSync(loaded, point, target), nil)
            }
        case .storage(let name, let errno, let continuation, let instant):
            if let point = StorageFaultPoint(rawValue: name), let failures = tally.storage,
                let target = Self.instant(instant, of: point.targets(in: loaded.transcript)),
                let variant = StorageFaultVariant.all.first(where: {
                    $0.errno.rawValue == errno && $0.continuation.rawValue == continuation
                })
            {
                let unit = StorageFaultRun.Unit(loaded: loaded, point: point, variant: variant, target: target)
                return await StorageFaultRun(options: options, launch: launch).play(unit, failures)
            }
        case .none:
            break
        }
        return await ClientLane<KizunaSync>(requestTimeout: client.requestTimeout).run(
            loaded, launch: { () throws(RunError) in try launch([:]) }, properties: properties)
    }
}
