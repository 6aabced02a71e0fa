import AccordTestSupport
import Corpus
import Foundation
import HTTP
import JSON
import KizunaWire
import ReferenceServer
import Serve
import ServerContract
import Testing

/// A recording of a service with a past and another writer (`Tests/Fixtures/record-live-world.py`:
/// rows of two users made before the recording, an edit and a delete among them; three devices of
/// two users syncing through `accord record`; another actor's upserts and deletes made straight to
/// the service between their exchanges), replayed with no flag against fresh builds.
@Suite("replaying a recording of a live service", .serialized)
struct LiveWorldReplayTests {
    /// Records the session into `folder` and returns the recording's path.
    static func record(in folder: URL) async throws -> String {
        let out = folder.appendingPathComponent("live.jsonl").path
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", AccordBinary.packageRoot + "/Tests/Fixtures/record-live-world.py", "--accord", AccordBinary.path, "--out", out,
        ]
        let errors = Pipe()
        process.standardOutput = FileHandle.nullDevice
        process.standardError = errors
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            process.terminationHandler = { _ in continuation.resume() }
            do { try process.run() } catch { continuation.resume() }
        }
        let stderr = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        try #require(process.terminationStatus == 0, "\(stderr)")
        return out
    }

    /// Runs `accord run` on the recording and returns its JUnit cases.
    static func replay(_ recording: String, _ target: [String], expect status: Int32, in folder: URL) async throws -> (JUnitCases, String) {
        let junit = folder.appendingPathComponent("replay-\(UUID().uuidString).xml").path
        let result = try await AccordBinary.run(["run"] + target + [recording, "--junit", junit])
        #expect(result.status == status, "\(result.stdout)\(result.stderr)")
        return (try JUnitCases(try Data(contentsOf: URL(fileURLWithPath: junit))), result.stdout)
    }

    /// Every exchange passed or was bound, none failed, none was skipped or errored.
    static func expectGreen(_ report: JUnitCases, _ stdout: String) {
        #expect(report.cases.count >= 15, "\(report.cases.map(\.name))")
        let bad = report.cases.filter { !$0.failures.isEmpty || $0.errored != nil || $0.skipped != nil }
        #expect(bad.isEmpty, "\(bad.prefix(3))\n\(stdout)")
        let tier = report.properties.values.first?["tier"]
        #expect(tier == "bound" || tier == "pass", "\(report.properties)")
        let inferred = report.properties.values.first?["inferred_changes"].flatMap(Int.init) ?? 0
        #expect(inferred >= 8, "the past, the other actor's writes and the filler writes are inferred: \(report.properties)")
    }

    @Test("it replays green with no flag against --server embedded and accord serve over HTTP, and diff finds no difference")
    func replaysGreen() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recording = try await Self.record(in: folder)
        let check = try await AccordBinary.run(["check", recording])
        #expect(check.status == 0, "\(check.stdout)")
        let (embedded, stdout) = try await Self.replay(recording, ["--server", "embedded"], expect: 0, in: folder)
        Self.expectGreen(embedded, stdout)
        // The world is visible in the report: a row made before the recording, shown by the first pull.
        #expect(stdout.contains("0 failed"))

        let served = try ServeEndToEndTests.Served(["--jwt-secret", "live-world", "--fixtures"])
        defer { _ = served.stop() }
        let url = "http://127.0.0.1:\(served.port)"
        let (http, httpOut) = try await Self.replay(recording, ["--server", url, "--jwt-secret", "live-world"], expect: 0, in: folder)
        Self.expectGreen(http, httpOut)
        let diff = try await AccordBinary.run(["diff", "--server", "embedded", "--server", url, "--jwt-secret", "live-world", recording])
        #expect(diff.status == 0, "\(diff.stdout)\(diff.stderr)")
        #expect(diff.stdout.contains("0 failed"), "\(diff.stdout)")
    }

    @Test("accord convert makes the recording a case: its inferred server steps visible, accord check and the server lane pass it")
    func recordingBecomesACase() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recording = try await Self.record(in: folder)
        let transcript = folder.appendingPathComponent("live-case.json").path
        let converted = try await AccordBinary.run(["convert", recording, transcript])
        #expect(converted.status == 0, "\(converted.stdout)\(converted.stderr)")
        #expect(converted.stderr.contains("server steps inferred from the recording"), "\(converted.stderr)")
        let json = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: transcript))))
        let steps = try #require(json["steps"]?.arrayValue)
        let server = steps.filter { $0["kind"] == "server" }
        #expect(server.count >= 8, "the past and the other actor's writes: \(server.count)")
        #expect(steps.first?["kind"] == "server", "the history comes first")
        // The other actor's rename of row 1 is there, by the actor every inferred change is made as.
        #expect(
            server.contains {
                $0["op"] == "upsert" && $0["pk"] == "00000000-0000-4000-8000-e10000000001"
                    && $0["columns"]?["title"] == "renamed on the web"
                    && $0["actor"] == .string(WorldChange.actor)
            }, "\(server)")
        #expect(server.contains { $0["op"] == "delete" && $0["pk"] == "00000000-0000-4000-8000-e10000000004" }, "\(server)")
        let check = try await AccordBinary.run(["check", transcript])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let run = try await AccordBinary.run(["run", "--server", "embedded", transcript])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        #expect(run.stdout.contains(" 0 failed"), "\(run.stdout)")
        // The client lane plays the case's own device (its writes are local steps); the other
        // devices' exchanges and the inferred steps are the server lane's.
        let client = try await AccordBinary.run(["run", "--client", AccordBinary.path + " driver", transcript])
        #expect(client.status == 0, "\(client.stdout)\(client.stderr)")
        #expect(client.stdout.contains(" 0 failed") && client.stdout.contains("steps left to the server lane"), "\(client.stdout)")
    }

    @Test("a server that drops a row, or reverses two verdicts, fails at the exchange where it happens, naming the rule")
    func brokenServersFailWhereTheyBreak() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recording = try await Self.record(in: folder)
        let secret = "live-world-broken"
        for (wrapped, exchange, rule) in [
            (DroppedRowServer(try ReferenceServer(), nth: 3) as any KizunaSync.ServerTarget, "exchange 3 pull", "AC-GOLDEN"),
            (ReversedVerdictsServer(try ReferenceServer()) as any KizunaSync.ServerTarget, "exchange 8 push", "I-5"),
        ] {
            var configuration = HTTPServerConfiguration()
            configuration.host = "127.0.0.1"
            configuration.port = 0
            let server = try PostgRESTRouter(target: wrapped, key: JWTKey(secret: secret), fixtures: true).serve(configuration)
            let report: JUnitCases
            let stdout: String
            do {
                (report, stdout) = try await Self.replay(
                    recording, ["--server", "http://127.0.0.1:\(server.port)", "--jwt-secret", secret], expect: 1, in: folder)
            } catch {
                await server.stop()
                throw error
            }
            await server.stop()
            let failed = report.cases.filter { !$0.failures.isEmpty }
            let first = try #require(failed.first, "\(stdout)")
            #expect(first.name.hasPrefix(exchange), "\(failed.map(\.name))")
            #expect(first.failures.first?.type == rule, "\(first.failures)")
            #expect(!report.cases.prefix { !$0.name.hasPrefix(exchange) }.contains { !$0.failures.isEmpty })
        }
    }
}
