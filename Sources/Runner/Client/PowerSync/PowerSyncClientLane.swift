import AccordDriver
import Corpus
import Foundation
import KizunaWire
import Reports

/// The client lane for one PowerSync case: a fresh loopback mock service, a fresh PowerSync
/// driver (docs/driver-protocol.md §11) and a fresh store; the case's steps played through the
/// driver, one test case a step, judged by `PowerSyncClientJudge`.
struct PowerSyncClientLane: Sendable {
    /// How long a driver may take to answer one request (a wait adds its own timeout).
    var requestTimeout: Duration
    /// The token the driver is told to send.
    static let token = "accord-powersync-client-lane-token"

    /// Runs one case.
    /// - Parameters:
    ///   - loaded: the transcript.
    ///   - launch: starts a fresh driver.
    ///   - properties: the suite's properties.
    /// - Returns: the suite result.
    func run(_ loaded: LoadedPowerSyncTranscript, launch: DriverLauncher, properties: [SuiteResult.Property]) async -> SuiteResult {
        let transcript = loaded.transcript
        let classname = CaseResult.classname(lane: "client", caseID: transcript.caseID)
        func suite(_ cases: [CaseResult]) -> SuiteResult {
            SuiteResult(
                name: transcript.caseID, file: loaded.file, properties: properties + [PowerSyncTranscriptCheck.profileProperty],
                cases: cases)
        }
        if let step = transcript.steps.first(where: { step in
            if case .checkpointRequest = step.action { return true }
            if case .writeCheckpoint = step.action { return true }
            return false
        }) {
            let reason =
                "not applicable: step \(step.n) \(step.label) is an exchange the app cannot make a client send (a chosen id or query); the server lane and accord check judge it"
            return suite([CaseResult(name: "client lane", classname: classname, outcome: .skipped(reason))])
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accord-powersync-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let mock: PowerSyncMock
        let channel: any DriverChannel
        do throws(RunError) {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw RunError.usage("cannot create the case folder \(folder.path): \(error.localizedDescription)")
            }
            mock = try PowerSyncMock.start(token: Self.token)
            do throws(RunError) {
                channel = try launch()
            } catch {
                await mock.stop()
                throw error
            }
        } catch {
            return suite([CaseResult(name: "driver", classname: classname, outcome: .errored("\(error)"))])
        }
        var play = PowerSyncClientPlay(
            transcript: transcript, classname: classname, session: DriverSession(channel: channel, timeout: requestTimeout), mock: mock)
        await play.run(store: folder.appendingPathComponent("store").path)
        await mock.stop()
        return suite(play.cases)
    }
}
