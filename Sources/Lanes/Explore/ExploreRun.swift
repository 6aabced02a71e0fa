import AccordVersion
import Corpus
import Explore
import Foundation
import Harness
import KizunaWire
import Reports
import ServerContract
import Synchronization

/// `accord explore`: generated scenarios played against a server target and judged by three
/// oracles (the rule catalog on every exchange, the reference's answers up to bindings, and
/// convergence), each failing scenario shrunk and kept as a transcript. Its units are stripes
/// of the scenario numbers (stripe k of n plays scenarios k, k+n, …), one per job, so scenario i
/// is the same whatever runs beside it; each stripe stops at its first finding, or when the budget
/// is spent, or when another stripe found one with a lower number.
package struct ExploreRun: Sendable {
    package struct Options: Sendable {
        package var run: RunOptions
        package var targetName: String
        package var seed: UInt64
        package var budget: ExploreBudget
        /// The corpus folder findings are written to.
        package var findings: String
        package var requiredTier = ResponseTier.bound
        /// How many smaller scenarios a shrink may try.
        package var shrinkTries = 2000
        /// Go on after a finding, keeping each distinct one (by fingerprint) once.
        package var keepGoing = false

        package init(targetName: String, seed: UInt64, budget: ExploreBudget, findings: String) {
            self.run = RunOptions(paths: [])
            self.targetName = targetName
            self.seed = seed
            self.budget = budget
            self.findings = findings
        }
    }

    /// Makes the model: a fresh reference server per realization, numbering a write that changes
    /// nothing as the target declares it does (the protocol leaves that open).
    package typealias ReferenceFactory = @Sendable (TargetCapabilities.NoOpWrites) throws(TargetError) -> any KizunaSync.ServerTarget

    /// `--client`: the driver under test, and the reference client's driver the golden requests
    /// come from.
    package struct ClientSide: Sendable {
        /// The driver's command line, for reports.
        package var name: String
        /// Starts the driver under test with extra environment variables (a kill hook, libfiu's preloads).
        package var launch: KillLauncher
        /// Starts the reference client's driver (`accord driver`).
        package var golden: DriverLauncher
        /// Whether scenarios kill the driver at the kill matrix's points (a driver that announces `kill-safe`).
        package var kills = true
        /// Whether scenarios fail the driver's storage at the storage-fault matrix's points (libfiu).
        package var storageFaults = true
        /// How long a driver may take to answer one request.
        package var requestTimeout: Duration = .seconds(10)

        package init(name: String, launch: @escaping KillLauncher, golden: @escaping DriverLauncher) {
            self.name = name
            self.launch = launch
            self.golden = golden
        }
    }

    let options: Options
    /// What plays the scenarios: a server target, or a client's driver.
    let side: Side
    let makeReference: ReferenceFactory

    /// Whose conversation the scenarios test: a server target's answers, or a client driver's requests and state.
    enum Side: Sendable {
        case server(KizunaSync.TargetFactory)
        case client(ClientSide)

        var isClient: Bool { if case .client = self { true } else { false } }
    }

    package init(_ options: Options, makeTarget: @escaping KizunaSync.TargetFactory, makeReference: @escaping ReferenceFactory) {
        self.options = options
        self.side = .server(makeTarget)
        self.makeReference = makeReference
    }

    /// Explores a client: scenarios whose device 0 is the driver under test.
    package init(_ options: Options, client: ClientSide, makeReference: @escaping ReferenceFactory) {
        self.options = options
        self.side = .client(client)
        self.makeReference = makeReference
    }
}

extension ExploreRun: Lane {
    package var reportName: String {
        switch side {
        case .server: "accord explore --server \(options.targetName) --seed \(options.seed)"
        case .client: "accord explore --client \(options.targetName) --seed \(options.seed)"
        }
    }

    var properties: [SuiteResult.Property] {
        Self.properties(.explore, target: options.targetName) + [
            SuiteResult.Property(name: "seed", value: String(options.seed)),
            SuiteResult.Property(name: "budget", value: options.budget.description),
            SuiteResult.Property(name: "profile", value: CorpusProfile.kizunaSync.rawValue),
        ]
    }

    package func prepare(_ cases: [CaseSource.Case], preflight: Bool) async throws(RunError) -> ExploreTally {
        guard case .server(let makeTarget) = side else { return try await prepareClient() }
        if preflight { try await ServerRun.preflight(makeTarget, name: options.targetName) }
        let capabilities: TargetCapabilities
        do throws(TargetError) {
            capabilities = try await makeTarget().capabilities()
        } catch {
            throw RunError.setup("the target \(options.targetName) did not say its capabilities: \(error)", fix: "check --server")
        }
        return ExploreTally(
            budget: options.budget, noOpWrites: capabilities.noOpWrites,
            progress: options.run.console.progress && !options.run.console.quiet)
    }

    package func plan(_ cases: [CaseSource.Case], _ tally: ExploreTally) -> [LanePlan<Int>] {
        (0..<max(1, options.run.selection.jobs)).map { .play($0) }
    }

    package func play(_ stripe: Int, _ tally: ExploreTally) async -> SuiteResult {
        let stripes = max(1, options.run.selection.jobs)
        let classname = "explore"
        var counts = ExploreCounts()
        var cases: [CaseResult] = []
        var index = stripe
        scenarios: while tally.mayStart(index) {
            let scenario =
                switch side {
                case .server: KizunaSync.ExploreGenerator.scenario(index: index, seed: options.seed)
                case .client:
                    KizunaSync.ExploreGenerator.clientScenario(index: index, seed: options.seed, faults: tally.clientFaults)
                }
            index += stripes
            switch await confirmed(scenario, in: tally) {
            case .problem(let problem):
                tally.stop(at: scenario.index)
                cases.append(CaseResult(name: "scenario \(scenario.index)", classname: classname, outcome: .errored(problem)))
                break scenarios
            case .clean(let outcome):
                counts.add(outcome)
            case .unrepeated(let fingerprint):
                counts.unrepeated += 1
                counts.firstUnrepeated = counts.firstUnrepeated ?? "scenario \(scenario.index): \(fingerprint)"
            case .finding(let outcome, let fingerprint):
                guard options.keepGoing else {
                    // Another stripe may have found a lower-numbered one meanwhile: the run reports
                    // the lowest, whatever the timing.
                    guard tally.claimLowest(scenario.index) else { break scenarios }
                    cases.append(await finding(outcome, scenario: scenario, tally: tally))
                    break scenarios
                }
                // Going on: a finding already kept is counted, not kept again.
                guard tally.isNew(fingerprint) else {
                    counts.known += 1
                    continue
                }
                cases.append(await finding(outcome, scenario: scenario, tally: tally))
            }
        }
        cases.insert(contentsOf: counts.cases(classname: classname, client: side.isClient), at: 0)
        let name = stripes == 1 ? "explore" : "explore \(stripe + 1) of \(stripes)"
        return SuiteResult(name: name, properties: properties, cases: cases)
    }
}

extension ExploreRun {
    /// A scenario played, and played again when it failed.
    enum Confirmed {
        /// It could not be played.
        case problem(String)
        /// It raised nothing.
        case clean(KizunaSync.ExploreOutcome)
        /// It failed once and not the same way when played again (a race of timing: a kill racing an
        /// answer, a loaded machine); counted and named in the report, not kept.
        case unrepeated(fingerprint: String)
        /// It failed the same way twice.
        case finding(KizunaSync.ExploreOutcome, fingerprint: String)
    }

    /// Plays a scenario, and once more when it fails, so that a finding is one that fails again.
    func confirmed(_ scenario: KizunaSync.ExploreScenario, in tally: ExploreTally) async -> Confirmed {
        let outcome: KizunaSync.ExploreOutcome
        switch await play(scenario, in: tally) {
        case .problem(let problem): return .problem(problem)
        case .outcome(let played): outcome = played
        }
        tally.played(steps: outcome.transcript.stepCount)
        guard let fingerprint = outcome.fingerprint else { return .clean(outcome) }
        switch await play(scenario, in: tally) {
        case .problem(let problem): return .problem(problem)
        case .outcome(let again):
            return again.fingerprint == fingerprint ? .finding(outcome, fingerprint: fingerprint) : .unrepeated(fingerprint: fingerprint)
        }
    }
}

/// What a stripe's scenarios that raised nothing added up to, for the three oracles' testcases.
struct ExploreCounts {
    var scenarios = 0
    var steps = 0
    var exchanges = 0
    var compared = 0
    var devices = 0
    /// Why devices were not compared, masked as fingerprints are, with how often.
    var unjudgedWhy: [String: Int] = [:]
    /// Failing scenarios whose finding was already kept (`--keep-going`).
    var known = 0
    /// Failing scenarios that did not fail the same way when played again, and the first of them.
    var unrepeated = 0
    var firstUnrepeated: String?
    var firstUnjudged: String?

    mutating func add(_ outcome: KizunaSync.ExploreOutcome) {
        firstUnjudged = firstUnjudged ?? outcome.unjudged.first
        // A reason's kind is what comes before its first ": " once the device it names is left
        // out (the rest names rows and values).
        for reason in outcome.unjudged {
            var kind = ExploreFingerprint.masked(reason)
            if kind.hasPrefix("device #: ") { kind.removeFirst("device #: ".count) }
            if let cut = kind.range(of: ": ") { kind = String(kind[..<cut.lowerBound]) }
            unjudgedWhy[kind, default: 0] += 1
        }
        scenarios += 1
        steps += outcome.transcript.stepCount
        exchanges += outcome.exchanges
        compared += outcome.compared
        devices += outcome.devicesJudged
    }

    func cases(classname: String, client: Bool = false) -> [CaseResult] {
        let over =
            "over \(scenarios) scenario\(scenarios == 1 ? "" : "s") that raised nothing (\(steps) steps)"
            + (known > 0 ? "; \(known) more failed as a finding already kept" : "")
            + (firstUnrepeated.map { "; \(unrepeated) failed once and not when played again (first: \($0))" } ?? "")
        // The most frequent reasons first, each once with its count.
        let why = unjudgedWhy.sorted { ($0.value, $1.key) > ($1.value, $0.key) }.prefix(4).map { "\($0.value)× \($0.key)" }
        let unjudged = unjudgedWhy.values.reduce(0, +)
        let notCompared = firstUnjudged.map { "; \(unjudged) not compared (first: \($0); by reason: \(why.joined(separator: "; ")))" } ?? ""
        let notes =
            client
            ? [
                "every client obligation held on \(exchanges) exchanges, kills and storage faults included, \(over)",
                "\(compared) requests equal to the reference client's \(over)",
                "\(devices) clients held their users' rows after the closing phase, \(over)\(notCompared)",
            ]
            : [
                "every rule of the catalog held on \(exchanges) exchanges \(over)",
                "\(compared) answers equal to the reference's up to bindings \(over)",
                "\(devices) devices converged on their users' rows, no applied write lost or applied twice, \(over)\(notCompared)",
            ]
        return zip(["rules", "differential", "convergence"], notes).map {
            CaseResult(name: $0, classname: classname, outcome: .passed, note: $1)
        }
    }
}

/// What the stripes of one explore run share: the budget, the lowest scenario number that found
/// something, the counts for the progress line, and the lock findings are written under.
package final class ExploreTally: Sendable {
    struct State {
        var lowestFinding: Int?
        /// The findings kept so far, by fingerprint (`--keep-going`).
        var fingerprints: Set<String> = []
        var scenarios = 0
        var steps = 0
        var drawn = ContinuousClock.now
    }

    let budget: ExploreBudget
    /// How the target numbers a write that changes nothing; the reference is made to match.
    let noOpWrites: TargetCapabilities.NoOpWrites
    /// `--client`: the faults a scenario may play its driver under (kill points, storage faults).
    let clientFaults: KizunaSync.ExploreClientFaults
    /// `--client`, storage faults on: libfiu's control, loaded once for the run.
    let storage: StorageFailures?
    let started = ContinuousClock.now
    let progress: Bool
    private let state = Mutex(State())
    /// Held while a finding is written to the findings folder.
    let writing = Mutex(())

    init(
        budget: ExploreBudget, noOpWrites: TargetCapabilities.NoOpWrites = .stamped, progress: Bool = false,
        clientFaults: KizunaSync.ExploreClientFaults = .init(), storage: StorageFailures? = nil
    ) {
        self.budget = budget
        self.noOpWrites = noOpWrites
        self.progress = progress
        self.clientFaults = clientFaults
        self.storage = storage
    }

    /// Whether scenario `index` may start: the budget is not spent, and no scenario numbered
    /// below it has found something.
    func mayStart(_ index: Int) -> Bool {
        let lowest = state.withLock { $0.lowestFinding }
        if let lowest, lowest < index { return false }
        if state.withLock({ $0.fingerprints.count >= Self.maxFindings }) { return false }
        switch budget {
        case .scenarios(let count): return index < count
        case .seconds(let seconds): return ContinuousClock.now - started < .seconds(seconds)
        }
    }

    /// No scenario numbered above `index` starts after this.
    func stop(at index: Int) {
        state.withLock { $0.lowestFinding = min($0.lowestFinding ?? index, index) }
    }

    /// Records a finding at `index` and says whether it is the lowest so far (else another
    /// stripe's lower one is the run's, and this one is not kept).
    func claimLowest(_ index: Int) -> Bool {
        state.withLock { state in
            if let lowest = state.lowestFinding, lowest < index { return false }
            state.lowestFinding = index
            return true
        }
    }

    /// Claims a finding's fingerprint: true for the first stripe to find it.
    func isNew(_ fingerprint: String) -> Bool {
        state.withLock { state in
            guard state.fingerprints.count < ExploreTally.maxFindings else { return false }
            return state.fingerprints.insert(fingerprint).inserted
        }
    }

    /// How many distinct findings `--keep-going` keeps.
    static let maxFindings = 50

    func played(steps: Int) {
        let line: String? = state.withLock { state in
            state.scenarios += 1
            state.steps += steps
            let now = ContinuousClock.now
            guard progress, now - state.drawn > .milliseconds(200) else { return nil }
            state.drawn = now
            let seconds = Double((now - started).components.seconds)
            return "\raccord explore: \(state.scenarios) scenarios, \(state.steps) steps, \(Int(seconds)) s\u{1B}[K"
        }
        if let line { FileHandle.standardError.write(Data(line.utf8)) }
    }
}
