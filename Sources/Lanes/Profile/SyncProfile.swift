import Corpus
import Harness
import KizunaWire
import PowerSyncWire
import Reports
import ServerContract

/// A sync protocol as the lanes play it (issue 38): one conformer bundles what differs between
/// KizunaSync and PowerSync — its loaded case, the server its server lane plays against and how a
/// case is played there, the loopback mock its client lane serves and how a case is played
/// through a driver against it, and its offline check (its rules are its namespace's `Trace`). The lanes (`ServerLane`, `ClientLane`,
/// and the runs built on them) are written once over this protocol; the per-protocol pieces are
/// members of the conformer (`KizunaSync.ServerPlay`, `PowerSync.Mock`, …). A third protocol is a
/// third conformer (docs/architecture.md, "Where a new piece goes").
protocol SyncProfile: Sendable {
    /// A case of the protocol as the corpus loaded it.
    associatedtype Loaded: Sendable
    /// The server the server lane plays a case against (a fresh one per case).
    associatedtype Target: Sendable
    /// The client lane's loopback service for one case.
    associatedtype Mock: Sendable
    /// What wraps a client-lane play: the plain lane, or a kill-matrix or storage-fault seam.
    associatedtype Variant: Sendable

    /// The profile's name in corpus manifests and reports.
    static var name: CorpusProfile { get }

    /// The suite's name and file of a case.
    static func suite(of loaded: Loaded) -> (name: String, file: String)

    /// Properties a server-lane suite of a case carries after the lane's own, whatever happens.
    static func serverProperties(of loaded: Loaded) -> [SuiteResult.Property]

    /// Properties a client-lane suite of a case carries after the lane's own, whatever happens.
    static func clientProperties(of loaded: Loaded) -> [SuiteResult.Property]

    /// Why no server can play a case (the reason, "not applicable: …"), or nil.
    static func serverInapplicable(_ loaded: Loaded) -> String?

    /// The server run's factory of this profile's targets, or nil when the run's target plays no
    /// case of it.
    static func target(in run: ServerRun) -> ServerLane<Self>.TargetFactory?

    /// Why a server run whose target plays no case of this profile skips one.
    static var noTargetReason: String { get }

    /// How the server lane plays one case on a target no other case uses.
    associatedtype ServerPlay: ServerCasePlay where ServerPlay.Profile == Self

    /// The plain client lane's variant (no seam).
    static var plain: Variant { get }

    /// The suite's name and the JUnit classname of a client-lane play of a case.
    static func clientNames(of loaded: Loaded, _ variant: Variant) -> (suite: String, classname: String)

    /// Why no client can play a case (the reason, "not applicable: …"), or nil.
    static func clientInapplicable(_ loaded: Loaded) -> String?

    /// Starts the case's mock on 127.0.0.1.
    static func startMock(for loaded: Loaded) async throws(RunError) -> Mock

    /// Plays a case through a started driver against its mock, the driver's store at `store`.
    static func drive(
        _ loaded: Loaded, channel: any DriverChannel, mock: Mock, store: String, lane: ClientLane<Self>, variant: Variant
    ) async -> Played

    /// Stops a mock (KizunaSync's lets a held connection go first).
    static func stop(_ mock: Mock) async

    /// The offline lane's suite of a case: its golden exchanges through the rules.
    static func checked(_ loaded: Loaded, properties: [SuiteResult.Property]) -> SuiteResult

    /// The suite with its picture drawn (a profile without pictures returns it as it is).
    static func picture(_ suite: SuiteResult, of loaded: Loaded) -> SuiteResult
}

extension SyncProfile {
    static func picture(_ suite: SuiteResult, of loaded: Loaded) -> SuiteResult { suite }
}

/// A profile's play of one case on its server, which the server lane calls.
protocol ServerCasePlay {
    /// The profile it plays.
    associatedtype Profile: SyncProfile
    /// Plays a case on a target no other case uses.
    static func play(_ loaded: Profile.Loaded, on target: Profile.Target, lane: ServerLane<Profile>) async -> Played
}

/// What a profile's play of one case gives its lane: the test cases, and the properties the play
/// learned (appended to the suite's).
struct Played: Sendable {
    var cases: [CaseResult]
    var properties: [SuiteResult.Property] = []
}

/// A loaded case of some profile, which a lane handed any case plays through that profile's
/// conformer (a case names its profile; the lane calls back with it).
package protocol ProfiledCase: Sendable {
    /// The server lane's suite of the case.
    func served(by run: ServerRun) async -> SuiteResult
    /// The client lane's suite of the case.
    func driven(by run: ClientRun) async -> SuiteResult
    /// The offline lane's suite of the case.
    func checked(properties: [SuiteResult.Property]) -> SuiteResult
}

extension LoadedTranscript: ProfiledCase {
    package func served(by run: ServerRun) async -> SuiteResult { await ServerLane<KizunaSync>.play(self, in: run) }
    package func driven(by run: ClientRun) async -> SuiteResult { await ClientLane<KizunaSync>.play(self, in: run) }
    package func checked(properties: [SuiteResult.Property]) -> SuiteResult { KizunaSync.checked(self, properties: properties) }
}

extension PowerSync.LoadedTranscript: ProfiledCase {
    package func served(by run: ServerRun) async -> SuiteResult { await ServerLane<PowerSync>.play(self, in: run) }
    package func driven(by run: ClientRun) async -> SuiteResult { await ClientLane<PowerSync>.play(self, in: run) }
    package func checked(properties: [SuiteResult.Property]) -> SuiteResult { PowerSync.checked(self, properties: properties) }
}
