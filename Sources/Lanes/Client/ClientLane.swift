import AccordDriver
import Corpus
import Foundation
import HTTP
import Harness
import Reports

/// The client lane for one case: a fresh loopback PostgREST mock, a fresh driver, a fresh
/// store in a temporary folder; the case's steps played through the driver.
public struct ClientLane: Sendable {
    /// How long a driver may take to answer one request.
    public var requestTimeout: Duration
    /// The apikey the driver is told to send.
    public static let apikey = "accord-client-lane-anon-key"
    static let jwtKey = JWTKey(secret: "accord-client-lane: the mock does not verify, the driver only echoes")

    /// Makes a lane.
    /// - Parameter requestTimeout: the per-request timeout (docs/driver-protocol.md §4).
    public init(requestTimeout: Duration = .seconds(10)) {
        self.requestTimeout = requestTimeout
    }

    /// Runs one case.
    /// - Parameters:
    ///   - loaded: the transcript.
    ///   - launch: starts a fresh driver.
    ///   - properties: the suite's properties.
    /// - Returns: the suite result.
    public func run(_ loaded: LoadedTranscript, launch: DriverLauncher, properties: [SuiteResult.Property]) async -> SuiteResult {
        await run(loaded, launch: launch, properties: properties, wrapper: Unwrapped())
    }

    /// Runs one case, its play wrapped in `wrapper` (which names the suite and its test cases).
    /// Server-side steps (changes, reaps) are the server lane's: the mock plays them, and the suite
    /// counts them in its `left_to_server_lane` property; they are not test cases here.
    func run<Wrapper: ClientPlayWrapper>(
        _ loaded: LoadedTranscript, launch: DriverLauncher, properties: [SuiteResult.Property], wrapper: Wrapper
    ) async -> SuiteResult {
        let transcript = loaded.transcript
        let classname = wrapper.classname(of: transcript)
        let suiteName = wrapper.suiteName(of: transcript)
        let leftToServer = transcript.steps.count { !$0.isClientVisible(to: transcript.context) }
        let laneProperties = properties + [SuiteResult.Property(name: SuiteResult.leftToLaneProperty("server"), value: "\(leftToServer)")]
        func suite(_ cases: [CaseResult]) -> SuiteResult {
            SuiteResult(name: suiteName, file: loaded.file, properties: laneProperties, cases: cases)
        }
        let plan = ClientCasePlan(transcript)
        if let reason = plan.inapplicable {
            return suite([CaseResult(name: "client lane", classname: classname, outcome: .skipped("not applicable: \(reason)"))])
        }
        let context = transcript.context
        let jwt = Self.jwtKey.mint(JWTClaims(subject: context.userID, sessionID: context.clientID))
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accord-client-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let mock: PostgRESTMock
        let channel: any DriverChannel
        do throws(RunError) {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            mock = try await PostgRESTMock.start(
                expecting: RequestMatch.Expected(jwt: jwt, apikey: Self.apikey, clientID: context.clientID))
            channel = try await LaneMockServer.launch(launch, orStop: mock.stop)
        } catch {
            return suite([CaseResult(name: "driver", classname: classname, outcome: .errored("\(error)"))])
        }
        var play = ClientCasePlay(loaded: loaded, plan: plan, channel: channel, mock: mock, timeout: requestTimeout, wrapper: wrapper)
        await play.run(store: folder.appendingPathComponent("store").path, jwt: jwt, apikey: Self.apikey)
        mock.release()
        await mock.stop()
        var result = suite(play.cases)
        if let reason = play.unsupported {
            result.properties.append(SuiteResult.Property(name: SuiteResult.unsupportedProperty, value: reason))
        }
        return result
    }
}

extension FileManager {
    fileprivate func createDirectory(at url: URL, withIntermediateDirectories: Bool) throws(RunError) {
        do {
            try createDirectory(at: url, withIntermediateDirectories: withIntermediateDirectories, attributes: nil)
        } catch {
            throw RunError.usage("cannot create the case folder \(url.path): \(error.localizedDescription)")
        }
    }
}
