import AccordDriver
import Corpus
import Foundation
import Harness
import Reports

/// The client lane for one case of any profile: a fresh loopback mock (the profile's), a fresh
/// driver and a fresh store in a temporary folder, the case played through the driver by its
/// profile (`SyncProfile.drive`), the mock stopped and the folder removed. A case no client can
/// play is one skipped test case, `client lane`; a mock or driver that does not start is one
/// errored test case, `driver`.
struct ClientLane<Profile: SyncProfile>: Sendable {
    /// How long a driver may take to answer one request (docs/driver-protocol.md §4; a wait adds
    /// its own timeout).
    var requestTimeout: Duration

    /// A lane with the run's per-request timeout.
    init(requestTimeout: Duration = .seconds(10)) {
        self.requestTimeout = requestTimeout
    }

    /// Runs one case, its play wrapped in `variant` (the plain lane's by default), which may name
    /// the suite and its test cases.
    func run(
        _ loaded: Profile.Loaded, launch: DriverLauncher, properties: [SuiteResult.Property], variant: Profile.Variant = Profile.plain
    ) async -> SuiteResult {
        let names = Profile.clientNames(of: loaded, variant)
        let all = properties + Profile.clientProperties(of: loaded)
        let file = Profile.suite(of: loaded).file
        func suite(_ cases: [CaseResult], _ more: [SuiteResult.Property] = []) -> SuiteResult {
            SuiteResult(name: names.suite, file: file, properties: all + more, cases: cases)
        }
        if let reason = Profile.clientInapplicable(loaded) {
            return suite([CaseResult(name: "client lane", classname: names.classname, outcome: .skipped(reason))])
        }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accord-client-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: folder) }
        let mock: Profile.Mock
        let channel: any DriverChannel
        do throws(RunError) {
            do {
                try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            } catch {
                throw RunError.usage("cannot create the case folder \(folder.path): \(error.localizedDescription)")
            }
            mock = try await Profile.startMock(for: loaded)
            do throws(RunError) { channel = try launch() } catch {
                await Profile.stop(mock)
                throw error
            }
        } catch {
            return suite([CaseResult(name: "driver", classname: names.classname, outcome: .errored("\(error)"))])
        }
        let played = await Profile.drive(
            loaded, channel: channel, mock: mock, store: folder.appendingPathComponent("store").path, lane: self, variant: variant)
        await Profile.stop(mock)
        return suite(played.cases, played.properties)
    }
}

extension ClientLane {
    /// Plays a case in `run`: through a fresh driver against the profile's mock, with the run's
    /// timeout, its picture drawn.
    static func play(_ loaded: Profile.Loaded, in run: ClientRun) async -> SuiteResult {
        let suite = await ClientLane(requestTimeout: run.options.requestTimeout).run(loaded, launch: run.launch, properties: run.properties)
        return Profile.picture(suite, of: loaded)
    }
}
