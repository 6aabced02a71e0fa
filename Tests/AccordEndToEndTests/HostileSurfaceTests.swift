import AccordTestSupport
import Foundation
import Testing

/// Issue 35: the surfaces added by issues 20–26 under attack, through the built binary and
/// scripts/hostile (the same attacks a team can run against its own build).
@Suite("Hostile peers: PowerSync serve, credentials in targets, drivers, report files", .serialized)
struct HostileSurfaceTests {
    static var hostile: String { AccordBinary.packageRoot + "/scripts/hostile" }

    /// Runs a command to its end, off the concurrency pool; its status and both streams.
    static func shell(_ arguments: [String]) async throws -> (status: Int32, stdout: String, stderr: String) {
        let output = try await PeerProcess.run("/usr/bin/env", arguments, timeout: 600)
        return (output.status, output.stdout, output.stderr)
    }

    @Test(
        "serve --profile powersync: 33 web-page fixture calls refused, 300 streams closed then a request served within 1 s, streams end at token expiry, Token/Bearer as PowerSync matches them, exp 1e400 and ids at 2^63-1 survive"
    )
    func powerSyncServeUnderAttack() async throws {
        let served = try ServeEndToEndTests.Served(["--profile", "powersync", "--jwt-secret", "hostile-secret", "--fixtures"])
        defer { _ = served.stop() }
        let result = try await Self.shell([
            "python3", Self.hostile, "powersync", "http://127.0.0.1:\(served.port)", "--secret", "hostile-secret", "--fixtures",
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.stdout.utf8)) as? [String: Any], "\(result.stdout)")
        #expect((report["findings"] as? [String])?.isEmpty == true, "\(report)")
        let checks = try #require(report["checks"] as? [String: Any])
        #expect(checks["web-page variants"] as? Int == 33)
        #expect(checks["300 streams opened and closed, then a request served within 1 s"] as? Bool == true)
        #expect(checks["a stream ends when its token expires"] as? Bool == true)
        #expect(checks["a write checkpoint past 2^63-1 is refused, not a crash"] as? Bool == true)
        let after = served.stop()
        #expect(after.status == 0, "the service was still running and stopped cleanly: \(after.rest)")
    }

    @Test("a password in --server reaches no report, no console line and no error: http:// and postgres:// URLs, ?password= too")
    func passwordCanary() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let served = try ServeEndToEndTests.Served(["--jwt-secret", "s", "--fixtures"])
        defer { _ = served.stop() }
        let outputs = ["r.xml", "r.html", "r.json"].map { folder.appendingPathComponent($0).path }
        let run = try await AccordBinary.run(
            [
                "run", "--server", "http://user:CANARY-PW-1@127.0.0.1:\(served.port)", AccordBinary.sharedCorpus, "--filter", "push/001*",
                "--junit", outputs[0], "--html", outputs[1], "--json", outputs[2],
            ], environment: ["ACCORD_JWT_SECRET": "s"])
        #expect(run.status == 0, "\(run.stdout)\(run.stderr)")
        for path in outputs {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(!text.contains("CANARY"), "\(path)")
            #expect(text.contains("redacted:secret"), "\(path) names the target, its password replaced")
        }
        #expect(!(run.stdout + run.stderr).contains("CANARY"))
        let postgres = try await AccordBinary.run([
            "run", "--server", "postgres://u:CANARY-PW-2@127.0.0.1:1/db?password=CANARY-PW-3", AccordBinary.sharedCorpus,
        ])
        #expect(postgres.status == 78, "\(postgres.stderr)")
        #expect(!(postgres.stdout + postgres.stderr).contains("CANARY"), "\(postgres.stderr)")
        #expect(postgres.stderr.contains("postgres://u:<redacted:secret:"), "\(postgres.stderr)")
        let initialise = try await AccordBinary.run(["postgres-init", "postgres://u@127.0.0.1:1/db?sslmode=disable&password=CANARY-PW-4"])
        #expect(initialise.status != 0)
        #expect(!(initialise.stdout + initialise.stderr).contains("CANARY"), "\(initialise.stderr)")
        #expect(
            initialise.stderr.contains("postgres://u@127.0.0.1:1/db?sslmode=disable&password=<redacted:secret:"), "\(initialise.stderr)")
    }

    @Test("a driver that forks a setsid child holding its pipes: a 2-case run ends at once, each case says so, and no orphan is left")
    func forkingDriver() async throws {
        let tag = "accord-orphan-\(UUID().uuidString.prefix(8))"
        let started = ContinuousClock.now
        let result = try await AccordBinary.run([
            "run", "--client", "'\(Self.hostile)' driver setsid-child --tag \(tag) -- \(ClientRunTests.driver)", AccordBinary.sharedCorpus,
            "--filter", "push/00[12]*", "--timeout", "5",
        ])
        let elapsed = ContinuousClock.now - started
        #expect(elapsed < .seconds(20), "the run took \(elapsed)")
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2 cases (0 passed, 2 failed"), "\(result.stdout)")
        #expect(result.stdout.contains("the driver left 1 process running outside its process group (killed)"), "\(result.stdout)")
        let left = try await Self.shell(["pgrep", "-f", tag])
        #expect(left.stdout.isEmpty, "orphans: \(left.stdout)")
    }

    @Test("a driver's stderr with a JWT and a password reaches the console redacted, as it reaches the reports")
    func stderrRedacted() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let driver = folder.appendingPathComponent("dies.sh")
        try """
        #!/bin/sh
        read line
        echo '{"id":1,"result":{"protocol":"accord-driver/1","name":"x","version":"1","capabilities":[]}}'
        read line
        echo "Authorization: Bearer eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJjYW5hcnkifQ.c2lnbmF0dXJlLWNhbmFyeS0xMjM0NTY3ODkw postgres://app:hunter2-canary@db/app" >&2
        exit 3

        """.write(to: driver, atomically: true, encoding: .utf8)
        let json = folder.appendingPathComponent("r.json").path
        let result = try await AccordBinary.run([
            "run", "--client", "sh '\(driver.path)'", AccordBinary.sharedCorpus, "--filter", "push/001*", "--json", json,
        ])
        #expect(result.status == 1)
        let everything = result.stdout + result.stderr + (try String(contentsOfFile: json, encoding: .utf8))
        #expect(result.stdout.contains("stderr tail: Authorization: Bearer <redacted:jwt:"), "\(result.stdout)")
        #expect(!everything.contains("hunter2-canary"))
        #expect(!everything.contains("c2lnbmF0dXJlLWNhbmFyeS0xMjM0NTY3ODkw"))
    }

    @Test("a hello answered with another id, or with a line of 1 GiB, is a setup error (78) saying so, within seconds")
    func brokenHello() async throws {
        let wrong = try await AccordBinary.run([
            "run", "--client", "'\(Self.hostile)' driver wrong-hello-id -- true", AccordBinary.sharedCorpus, "--filter", "push/001*",
        ])
        #expect(wrong.status == 78, "\(wrong.stderr)")
        #expect(wrong.stderr.contains("answered hello id 1 with id 2"), "\(wrong.stderr)")
        let started = ContinuousClock.now
        let huge = try await AccordBinary.run([
            "run", "--client", "'\(Self.hostile)' driver huge-line -- true", AccordBinary.sharedCorpus, "--filter", "push/001*",
        ])
        #expect(huge.status == 78, "\(huge.stderr)")
        #expect(huge.stderr.contains("answered hello with a line over 64 MiB"), "\(huge.stderr)")
        #expect(ContinuousClock.now - started < .seconds(30))
    }

    @Test("a link planted at <report>.partial is removed, not followed: its target is untouched and the report is written")
    func partialLink() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let victim = folder.appendingPathComponent("victim")
        try "keep me".write(to: victim, atomically: true, encoding: .utf8)
        let report = folder.appendingPathComponent("report.xml").path
        try FileManager.default.createSymbolicLink(atPath: report + ".partial", withDestinationPath: victim.path)
        let result = try await AccordBinary.run(["check", AccordBinary.sharedCorpus, "--junit", report])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(try String(contentsOf: victim, encoding: .utf8) == "keep me")
        #expect(try String(contentsOfFile: report, encoding: .utf8).contains("<testsuites"))
        #expect(!FileManager.default.fileExists(atPath: report + ".partial"))
    }

    @Test("a JWT-shaped client_id reaches neither the identity of a converted recording nor its HAR")
    func clientIDRedacted() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let jwt = "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJjbGllbnQtY2FuYXJ5In0.Y2xpZW50LWlkLWNhbmFyeS1zaWduYXR1cmU"
        let recording = folder.appendingPathComponent("rec.jsonl")
        try """
        {"accord_recording":1,"protocol":"kizunasync","redaction":{"enabled":true},"started_at":"2026-12-02T13:59:00Z","tool":"accord 0.1.0","upstream":"http://127.0.0.1:9"}
        {"exchange":1,"at_ms":20,"duration_ms":1,"http":{"method":"POST","path":"/sync/checkpoint-request","request_headers":{},"response_headers":{},"status":200},"identity":{"client":"\(jwt)","user":"user-ada"},"request":{"client_id":"\(jwt)","checkpoint_request_id":"1"},"response":{"checkpoint_request_id":"1"},"rpc":"checkpoint-request"}

        """.write(to: recording, atomically: true, encoding: .utf8)
        for target in ["copy.jsonl", "out.har"] {
            let path = folder.appendingPathComponent(target).path
            let result = try await AccordBinary.run(["convert", recording.path, path])
            #expect(result.status == 0, "\(result.stderr)")
            let text = try String(contentsOfFile: path, encoding: .utf8)
            #expect(!text.contains("Y2xpZW50LWlkLWNhbmFyeS1zaWduYXR1cmU"), "\(target): \(text)")
            #expect(text.contains("<redacted:jwt:"), "\(target)")
        }
    }

    @Test("a HAR that repeats \"entries\" is refused naming the pointer, not converted to an empty recording")
    func repeatedHARKey() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let har = folder.appendingPathComponent("two.har")
        try #"{"log":{"version":"1.2","entries":[],"entries":[]}}"#.write(to: har, atomically: true, encoding: .utf8)
        let result = try await AccordBinary.run(["convert", har.path, folder.appendingPathComponent("out.jsonl").path])
        #expect(result.status == 64, "\(result.stderr)")
        #expect(result.stderr.contains("/log/entries"), "\(result.stderr)")
        #expect(result.stderr.contains("repeats the key \"entries\""), "\(result.stderr)")
    }
}
