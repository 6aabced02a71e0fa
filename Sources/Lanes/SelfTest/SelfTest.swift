import Corpus
import Foundation
import Harness
import KizunaWire
import PowerSyncWire
import Reports
import ServerContract

/// `accord selftest`: plays the unmutated reference server and client (they must pass), then
/// each seeded fault through the lanes that should catch it, quietly, and records which rule
/// killed it first: server faults in process through the server lane, client faults in a driver
/// process through the client lane and then, if they survived it, the kill matrix and the
/// storage-fault matrix.
public struct SelfTest: Sendable {
    /// Makes the server factory for a fault's name; nil for the unmutated server.
    public typealias ServerFactory = @Sendable (_ fault: String?) -> KizunaSync.TargetFactory
    /// The driver command line for a fault's name; nil for the unmutated client.
    public typealias ClientCommand = @Sendable (_ fault: String?) -> String
    /// Makes the PowerSync service factory (its targets) for a fault's name; nil for the unmutated service.
    public typealias ServiceFactory = @Sendable (_ fault: String?) -> PowerSync.TargetFactory

    /// What to play.
    public struct Options: Sendable {
        /// The shared corpus folder (also the bijection probe's source).
        public var corpus: String
        /// Further inputs both lanes play: Conformance/, Recordings/.
        public var extraPaths: [String]
        /// Per-case setup for the server lane.
        public var scenarios: Scenarios
        /// Cases played at once inside one lane run.
        public var jobs: Int
        /// How long a driver may take to answer one request.
        public var requestTimeout: Duration
        /// The PowerSync cases the PowerSync client's baseline and mutants are played over.
        public var powerSyncPaths: [String] = []
        /// The PowerSync driver command line for a fault's name; nil for the unmutated client.
        public var powerSyncClientCommand: ClientCommand?

        /// Makes options.
        /// - Parameters:
        ///   - corpus: the shared corpus folder.
        ///   - extraPaths: further corpus folders, transcripts or recordings.
        public init(corpus: String, extraPaths: [String]) {
            self.corpus = corpus
            self.extraPaths = extraPaths
            self.scenarios = .builtIn
            self.jobs = 4
            self.requestTimeout = .seconds(10)
        }
    }

    /// The self-test's findings.
    public struct Outcome: Sendable {
        /// Baseline failures: the unmutated component and its first failure.
        public var baselineFailures: [(component: Mutant.Component, kill: MutantKill)]
        /// One result per mutant, in the order given.
        public var results: [MutantResult]
    }

    let options: Options
    let serverFactory: ServerFactory
    let clientCommand: ClientCommand
    /// The PowerSync service factory per fault; nil plays no PowerSync-service mutant or baseline.
    public var powerSyncFactory: ServiceFactory?

    /// Makes a self-test.
    /// - Parameters:
    ///   - options: what to play.
    ///   - serverFactory: the server target factory per fault.
    ///   - clientCommand: the driver command per fault.
    public init(options: Options, serverFactory: @escaping ServerFactory, clientCommand: @escaping ClientCommand) {
        self.options = options
        self.serverFactory = serverFactory
        self.clientCommand = clientCommand
    }

    /// The mutants whose names match a glob (all of them for nil).
    /// - Parameters:
    ///   - mutants: the catalogue.
    ///   - filter: a glob over mutant names.
    /// - Returns: the matching mutants, in catalogue order.
    public static func select(_ mutants: [Mutant], filter: String?) -> [Mutant] {
        mutants.filter { CaseSource.matches($0.name, filter) }
    }

    /// Runs the baselines and then every mutant.
    /// - Parameters:
    ///   - mutants: the mutants to play.
    ///   - progress: receives one line per finished run (for standard error).
    /// - Returns: the baseline failures and the per-mutant results.
    /// - Throws: `RunError` for bad input.
    public func run(_ mutants: [Mutant], progress: (String) -> Void) async throws(RunError) -> Outcome {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accord-selftest-\(UUID().uuidString)")
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        } catch {
            throw RunError.output(folder.path, "\(error)")
        }
        defer { try? FileManager.default.removeItem(at: folder) }
        let serverPaths = [options.corpus] + options.extraPaths
        let clientPaths = serverPaths + [try BijectionProbe.write(corpus: options.corpus, into: folder)]
        var baseline: [(component: Mutant.Component, kill: MutantKill)] = []
        let components = Set(mutants.map(\.component))
        for component in [Mutant.Component.server, .client, .powerSyncService, .powerSyncClient] where components.contains(component) {
            let started = ContinuousClock.now
            if let kill = try await play(component, fault: nil, server: serverPaths, client: clientPaths) {
                baseline.append((component, kill))
            }
            progress(
                "baseline \(component.rawValue): \(baseline.contains { $0.component == component } ? "FAILED" : "passed") (\(RunClock.seconds(since: started))s)"
            )
        }
        var results: [MutantResult] = []
        for mutant in mutants {
            let started = ContinuousClock.now
            let kill = try await play(mutant.component, fault: mutant.name, server: serverPaths, client: clientPaths)
            let result = MutantResult(mutant: mutant, kill: kill, seconds: RunClock.seconds(since: started))
            progress("\(mutant.name): \(kill.map { "killed by \($0.ruleID)" } ?? "SURVIVED") (\(result.seconds)s)")
            results.append(result)
        }
        return Outcome(baselineFailures: baseline, results: results)
    }

    /// Plays one component with one fault (nil: none) and returns the first failure.
    private func play(_ component: Mutant.Component, fault: String?, server: [String], client: [String]) async throws(RunError)
        -> MutantKill?
    {
        switch component {
        case .server:
            return MutantKill.first(in: try await serverSuites(server, makeTarget: serverFactory(fault)), lane: "server")
        case .client:
            let command = clientCommand(fault)
            if let kill = MutantKill.first(in: try await clientSuites(client, command: command), lane: "client") { return kill }
            if let kill = MutantKill.first(in: try await killSuites(client, command: command), lane: "kill-matrix") { return kill }
            return MutantKill.first(in: try await storageSuites(client, command: command), lane: "storage-faults")
        case .powerSyncClient:
            guard let command = options.powerSyncClientCommand?(fault) else {
                throw RunError.usage("accord selftest: no PowerSync driver command is set for the PowerSync client's mutants")
            }
            if let kill = MutantKill.first(in: try await clientSuites(options.powerSyncPaths, command: command), lane: "client") {
                return kill
            }
            return MutantKill.first(in: try await killSuites(options.powerSyncPaths, command: command), lane: "kill-matrix")
        case .powerSyncService:
            return MutantKill.first(in: try await powerSyncSuites(server, fault: fault), lane: "server")
        }
    }

    /// A quiet run of the self-test's jobs over some inputs.
    private func runner(_ paths: [String]) -> LaneRunner {
        var run = RunOptions(paths: paths)
        run.selection.jobs = options.jobs
        return LaneRunner(run)
    }

    /// The server lane's options for the self-test: its scenarios, the default tier.
    private func serverOptions(_ paths: [String]) -> ServerRun.Options {
        var server = ServerRun.Options(paths: paths, targetName: "embedded")
        server.scenarios = options.scenarios
        return server
    }

    private func serverSuites(_ paths: [String], makeTarget: @escaping KizunaSync.TargetFactory) async throws(RunError) -> [SuiteResult] {
        try await runner(paths).collect(ServerRun(serverOptions(paths), makeTarget: makeTarget)).suites
    }

    /// The server lane over the PowerSync inputs only (corpus folders whose manifest says so),
    /// each case on a fresh PowerSync service with the fault.
    private func powerSyncSuites(_ paths: [String], fault: String?) async throws(RunError) -> [SuiteResult] {
        guard let powerSyncFactory else { return [] }
        let folders = paths.filter { (try? CorpusProfile.of(folder: FolderFiles(root: $0))) == .powerSync }
        if folders.isEmpty { return [] }
        let lane = ServerRun(serverOptions(folders), makeTarget: serverFactory(nil), makePowerSyncTarget: powerSyncFactory(fault))
        return try await runner(folders).collect(lane).suites
    }

    private func clientSuites(_ paths: [String], command: String) async throws(RunError) -> [SuiteResult] {
        let launch: DriverLauncher = { () throws(RunError) in try ProcessDriver(command: command) }
        return try await runner(paths).collect(ClientRun(clientOptions(paths, command: command), launch: launch)).suites
    }

    private func killSuites(_ paths: [String], command: String) async throws(RunError) -> [SuiteResult] {
        try await runner(paths).collect(KillMatrixRun(options: clientOptions(paths, command: command), launch: launch(command))).suites
    }

    private func storageSuites(_ paths: [String], command: String) async throws(RunError) -> [SuiteResult] {
        try await runner(paths).collect(StorageFaultRun(options: clientOptions(paths, command: command), launch: launch(command))).suites
    }

    /// Starts a mutant's driver with extra environment variables.
    private func launch(_ command: String) -> KillLauncher {
        { (environment: [String: String]) throws(RunError) in try ProcessDriver(command: command, environment: environment) }
    }

    /// The client lanes' run of a mutant's driver: the self-test's jobs and request timeout.
    private func clientOptions(_ paths: [String], command: String) -> ClientRun.Options {
        var run = ClientRun.Options(paths: paths, clientName: command)
        run.run.selection.jobs = options.jobs
        run.requestTimeout = options.requestTimeout
        return run
    }
}
