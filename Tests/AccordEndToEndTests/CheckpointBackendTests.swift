import Foundation
import HTTP
import JSON
import Synchronization
import Testing

/// A team's custom checkpoint backend as a server-lane target: the route a PowerSync app's
/// `CustomCheckpointRequestConnector` posts to must keep the greatest id per user and client and
/// answer the greater of it and the submitted one (../shared/seeds/powersync-checkpoint-requests.txt,
/// "Checkpoint Request IDs", rules 1-3). `accord run --server checkpoint-backend+<URL>` plays every
/// case's checkpoint requests against it and judges them (PS-REQUEST-ID and the golden answers).
@Suite("a custom checkpoint backend as a server-lane target", .serialized)
struct CheckpointBackendTests {
    static let secret = "backend-e2e-secret"

    @Test("accord serve's reference backend keeps the greatest id: every case's checkpoint requests pass, streams are not applicable")
    func referenceBackendPasses() async throws {
        let served = try ServeEndToEndTests.Served(["--profile", "powersync", "--jwt-secret", Self.secret])
        let token = try await JWTCommandTests.mint(["--secret", Self.secret, "--sub", "user-ada"])
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("r.json")
        let result = try await AccordBinary.run([
            "run", "--server", "checkpoint-backend+http://127.0.0.1:\(served.port)/accord/checkpoint-request", "--backend-token", token,
            PowerSyncCheckTests.folder, "--json", report.path,
        ])
        #expect(served.stop().status == 0)
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("26 cases (8 passed, 0 failed, 18 skipped)"), "\(result.stdout)")
        let json = try JSONParser.parse([UInt8](try Data(contentsOf: report)))
        let cases = (json["suites"]?.arrayValue ?? []).flatMap { $0["cases"]?.arrayValue ?? [] }
        for testcase in cases where (testcase["name"]?.stringValue ?? "").hasSuffix(" sync-stream") {
            #expect(testcase["outcome"] == "skipped")
            #expect(testcase["reason"]?.stringValue?.contains("a checkpoint backend answers checkpoint requests only") == true)
        }
        #expect(cases.contains { $0["name"] == "step 5 checkpoint-request" && $0["outcome"] == "passed" })
    }

    /// A backend that stores whatever it is sent: a stale id moves the held one back.
    final class LastWins: Sendable {
        let held = Mutex<[String: String]>([:])
    }

    @Test("a backend that keeps the last id instead of the greatest fails PS-REQUEST-ID at the reconcile that sends 1 while 42 is held")
    func lastWinsBackendFails() async throws {
        let state = LastWins()
        let server = try HTTPServer.start(HTTPServerConfiguration(host: "127.0.0.1", port: 0, gracePeriod: .milliseconds(100))) {
            request, stream in
            let body = (try? JSONParser.parse(request.body)) ?? .null
            let client = body["client_id"]?.stringValue ?? ""
            let id = body["checkpoint_request_id"].map { $0.stringValue ?? CanonicalJSON.compact($0) } ?? "0"
            state.held.withLock { $0[client] = id }
            _ = stream.respond(
                HTTPResponse(
                    status: 200, headers: ["Content-Type": "application/json"],
                    body: Array(CanonicalJSON.compact(["checkpoint_request_id": .string(id)]).utf8)))
        }
        let result = try await AccordBinary.run([
            "run", "--server", "checkpoint-backend+http://127.0.0.1:\(server.port)/checkpoints", "--backend-token", "app-session",
            PowerSyncCheckTests.folder, "--filter", "powersync/007-*",
        ])
        await server.stop()
        #expect(result.status == 1, "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "FAIL powersync/007-checkpoint-request-ids-keep-the-greatest › step 2 checkpoint-request: PS-REQUEST-ID answer 1 moves the held id 42 back"
            ), "\(result.stdout)")
    }

    @Test("a checkpoint backend target needs the app's credential")
    func tokenRequired() async throws {
        let result = try await AccordBinary.run([
            "run", "--server", "checkpoint-backend+http://127.0.0.1:9/x", PowerSyncCheckTests.folder,
        ])
        #expect(result.status == 64, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("--backend-token"), "\(result.stderr)")
    }
}
