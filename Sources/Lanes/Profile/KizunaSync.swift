import AccordDriver
import Checks
import Corpus
import HTTP
import Harness
import KizunaWire
import Reports
import ServerContract

/// The KizunaSync profile: a case is a golden transcript, its server a `KizunaSync.ServerTarget` seeded and
/// stepped through the fixture operations, its client lane's mock a loopback PostgREST surface,
/// and a client-lane play may be wrapped by the kill or storage-fault matrix (`ClientPlayWrapper`).
extension KizunaSync: SyncProfile {
    typealias Target = any KizunaSync.ServerTarget
    typealias Variant = any ClientPlayWrapper

    /// The apikey the driver is told to send.
    static let apikey = "accord-client-lane-anon-key"
    /// The key the client lane mints the driver's JWT with: a fixed, non-secret string (the mock
    /// compares the token, it does not verify it).
    static let jwtKey = JWTKey(secret: "accord-client-lane: the mock does not verify, the driver only echoes")

    static var name: CorpusProfile { .kizunaSync }

    static func suite(of loaded: LoadedTranscript) -> (name: String, file: String) {
        (loaded.transcript.caseID, loaded.file)
    }

    static func serverProperties(of loaded: LoadedTranscript) -> [SuiteResult.Property] { [] }

    /// Server-side steps (changes, reaps) are the server lane's: the mock plays them, and the
    /// client-lane suite counts them in `left_to_server_lane`.
    static func clientProperties(of loaded: LoadedTranscript) -> [SuiteResult.Property] {
        let transcript = loaded.transcript
        let left = transcript.steps.count { !$0.isClientVisible(to: transcript.context) }
        return [SuiteResult.Property(name: SuiteResult.leftToLaneProperty("server"), value: "\(left)")]
    }

    static func serverInapplicable(_ loaded: LoadedTranscript) -> String? { nil }

    static func target(in run: ServerRun) -> ServerLane<KizunaSync>.TargetFactory? { run.makeTarget }

    /// Never given: every server run has a KizunaSync target.
    static var noTargetReason: String { "not applicable: the run's target plays no KizunaSync case" }

    static var plain: any ClientPlayWrapper { Unwrapped() }

    static func clientNames(of loaded: LoadedTranscript, _ variant: any ClientPlayWrapper) -> (suite: String, classname: String) {
        (variant.suiteName(of: loaded.transcript), variant.classname(of: loaded.transcript))
    }

    static func clientInapplicable(_ loaded: LoadedTranscript) -> String? {
        ClientCasePlan(loaded.transcript).inapplicable.map { "not applicable: \($0)" }
    }

    /// A mock that expects the case's user and client, with the lane's JWT and apikey.
    static func startMock(for loaded: LoadedTranscript) async throws(RunError) -> Mock {
        try await startMock(for: loaded.transcript.context)
    }

    /// A mock that expects a context's user and client, with the lane's JWT and apikey.
    static func startMock(for context: CaseContext) async throws(RunError) -> Mock {
        let jwt = jwtKey.mint(JWTClaims(subject: context.userID, sessionID: context.clientID))
        return try await Mock.start(expecting: RequestMatch.Expected(jwt: jwt, apikey: apikey, clientID: context.clientID))
    }

    /// Plays the case through the driver (`ClientPlay`); a driver that refused part of it as
    /// unsupported gives the suite an `unsupported` property.
    static func drive(
        _ loaded: LoadedTranscript, channel: any DriverChannel, mock: Mock, store: String, lane: ClientLane<KizunaSync>,
        variant: any ClientPlayWrapper
    ) async -> Played {
        await drive(loaded, channel: channel, mock: mock, store: store, timeout: lane.requestTimeout, wrapper: variant)
    }

    private static func drive<Wrapper: ClientPlayWrapper>(
        _ loaded: LoadedTranscript, channel: any DriverChannel, mock: Mock, store: String, timeout: Duration, wrapper: Wrapper
    ) async -> Played {
        var play = ClientPlay(
            loaded: loaded, plan: ClientCasePlan(loaded.transcript), channel: channel, mock: mock, timeout: timeout, wrapper: wrapper)
        await play.run(store: store, jwt: mock.expected.jwt, apikey: apikey)
        let unsupported = play.unsupported.map { [SuiteResult.Property(name: SuiteResult.unsupportedProperty, value: $0)] }
        return Played(cases: play.cases, properties: unsupported ?? [])
    }

    /// Lets a held connection go, then stops the mock.
    static func stop(_ mock: Mock) async {
        mock.release()
        await mock.stop()
    }

    /// The golden transcript through the rules, drawn as written.
    static func checked(_ loaded: LoadedTranscript, properties: [SuiteResult.Property]) -> SuiteResult {
        TranscriptCheck.suite(loaded, properties: properties).drawing(SequenceTimeline(transcript: loaded.transcript))
    }

    /// The suite drawn from what the target answered or the driver sent (`drawing(transcript:)`).
    static func picture(_ suite: SuiteResult, of loaded: LoadedTranscript) -> SuiteResult {
        suite.drawing(transcript: loaded.transcript)
    }
}
