import AccordTestSupport
import Dispatch
import Foundation
import Testing

/// `accord serve --fixtures` on loopback, driven by `accord run --server URL`: the server lane
/// over real HTTP, JWTs minted and verified with a shared secret.
@Suite("accord serve over loopback HTTP", .serialized)
struct ServeEndToEndTests {
    /// A running `accord serve`, stopped with SIGINT at the end of the test.
    final class Served {
        let process = ChildProcess()
        let port: Int
        let output: Pipe

        init(_ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: AccordBinary.path)
            process.arguments = ["serve", "--listen", "127.0.0.1:0"] + arguments
            output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            var line: [UInt8] = []
            while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != 0x0A { line.append(byte) }
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = text.range(of: "127.0.0.1:"), let port = Int(text[colon.upperBound...].prefix(while: \.isNumber)) else {
                process.terminate()
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no listening line: \(text)"])
            }
            self.port = port
        }

        func stop() -> (status: Int32, rest: String) {
            process.interrupt()
            process.waitUntilExit()
            let rest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return (process.terminationStatus, rest)
        }

        deinit { if process.isRunning { process.terminate() } }
    }

    @Test("a SIGINT sent as soon as the listening line is read stops accord serve, 30 times in a row")
    func interruptAtOnce() throws {
        for attempt in 1...30 {
            let served = try Served(["--jwt-secret", "s", "--fixtures"])
            let ended = DispatchSemaphore(value: 0)
            served.process.terminationHandler = { _ in ended.signal() }
            served.process.interrupt()
            let stopped = ended.wait(timeout: .now() + 10) == .success
            if !stopped { served.process.terminate() }
            try #require(stopped, "attempt \(attempt): accord serve lost the SIGINT sent right after 'listening'")
            #expect(served.process.terminationStatus == 0)
        }
    }

    @Test("the whole corpus passes over HTTP at tier pass, and SIGINT stops the server cleanly")
    func corpusOverHTTP() async throws {
        let served = try Served(["--jwt-secret", "e2e-secret", "--fixtures"])
        let result = try await AccordBinary.run([
            "run", "--server", "http://127.0.0.1:\(served.port)", "--jwt-secret", "e2e-secret", AccordBinary.sharedCorpus,
            "--scenarios", AccordBinary.packageRoot + "/../shared/corpus-scenarios.json",
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("41 cases (39 passed, 0 failed, 2 skipped)"), "\(result.stdout)")
        let stopped = served.stop()
        #expect(stopped.status == 0)
        #expect(stopped.rest.contains("accord serve: stopped"))
    }

    // A wrong secret and a closed fixture endpoint are setup mistakes: SetupErrorTests.

    @Test("serve refuses --fixtures on a non-loopback listener and a missing secret")
    func serveUsage() async throws {
        #expect(try await AccordBinary.run(["serve", "--listen", "0.0.0.0:0", "--jwt-secret", "s", "--fixtures"]).status == 64)
        #expect(try await AccordBinary.run(["serve", "--listen", "127.0.0.1:0"]).status == 64)
        let unknown = try await AccordBinary.run(["serve", "--listen", "127.0.0.1:0", "--jwt-secret", "s", "--fault", "nope"])
        #expect(unknown.status == 64)
        #expect(unknown.stderr.contains("unknown fault 'nope' (known: cursor-plus-one, "), "\(unknown.stderr)")
    }

    static let abusePeer = #"""
        import base64, hashlib, hmac, http.client, json, sys
        port, secret = int(sys.argv[1]), sys.argv[2]
        b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
        def jwt(key, sub="00000000-0000-4000-8000-a10000000001", sid="00000000-0000-4000-8000-c10000000001"):
            head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
            body = b64(json.dumps({"sub": sub, "session_id": sid}).encode())
            sig = b64(hmac.new(key.encode(), f"{head}.{body}".encode(), hashlib.sha256).digest())
            return f"{head}.{body}.{sig}"
        good = {"Authorization": "Bearer " + jwt(secret), "Content-Type": "application/json", "Content-Profile": "kizunasync"}
        user = "00000000-0000-4000-8000-a10000000001"
        insert = {"columns": {"done": False, "owner_id": user, "title": "t"}, "mutation_id": "00000000-0000-4000-8000-f10000000001",
                  "op": "insert", "pk": "00000000-0000-4000-8000-e10000000001", "table": "todos"}
        cases = [
            ("bad json", "push", b'{"batch": ', good),
            ("wrong type", "push", json.dumps({"batch": {"atomic": "yes", "mutations": [insert]}, "last_mutation_id": None, "schema_version": 1}).encode(), good),
            ("unknown key", "push", json.dumps({"batch": {"atomic": False, "mutations": [insert, dict(insert, mutation_id="00000000-0000-4000-8000-f10000000002", extra=1)]}, "last_mutation_id": None, "schema_version": 1}).encode(), good),
            ("oversized", "push", b'{"pad": "' + b"x" * (2 * 1024 * 1024) + b'"}', good),
            ("no jwt", "push", json.dumps({"batch": {"atomic": False, "mutations": [insert]}, "last_mutation_id": None, "schema_version": 1}).encode(), {"Content-Type": "application/json"}),
            ("bad jwt", "push", json.dumps({"batch": {"atomic": False, "mutations": [insert]}, "last_mutation_id": None, "schema_version": 1}).encode(), dict(good, Authorization="Bearer " + jwt("not-the-secret"))),
        ]
        out = {}
        for name, rpc, body, headers in cases:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            try:
                c.request("POST", "/rest/v1/rpc/" + rpc, body=body, headers=headers)
                r = c.getresponse()
                data = json.loads(r.read() or b"null")
                out[name] = [r.status, sorted(data.keys()) if isinstance(data, dict) else None]
            except Exception as e:
                out[name] = ["error", str(e)]
            c.close()
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        pull = {"buckets": [{"params": {"owner_id": user}, "table": "todos"}], "cursor": "0", "schema_version": 1}
        c.request("POST", "/rest/v1/rpc/pull", body=json.dumps(pull), headers=good)
        r = c.getresponse()
        out["pull after"] = [r.status, json.loads(r.read())]
        print(json.dumps(out))
        """#

    @Test("bad JSON, wrong types, unknown keys, oversized bodies, missing or invalid JWTs get PostgREST errors; nothing is written")
    func abuseIsRefusedCleanly() throws {
        let served = try Served(["--jwt-secret", "abuse-secret", "--fixtures"])
        defer { _ = served.stop() }
        let seed = ChildProcess()
        seed.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        seed.arguments = [
            "curl", "-sf", "-X", "POST", "http://127.0.0.1:\(served.port)/accord/fixtures/seed", "-H", "Content-Type: application/json",
            "-d",
            #"{"server":{"min_schema_version":1,"tables":{"todos":{"bucket_column":"owner_id"}},"tombstone_ttl_days":30}}"#,
        ]
        try seed.run()
        seed.waitUntilExit()
        #expect(seed.terminationStatus == 0)
        let peer = ChildProcess()
        peer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        peer.arguments = ["python3", "-c", Self.abusePeer, String(served.port), "abuse-secret"]
        let pipe = Pipe()
        peer.standardOutput = pipe
        peer.standardError = FileHandle.nullDevice
        try peer.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        peer.waitUntilExit()
        let report = try #require(
            try JSONSerialization.jsonObject(with: output) as? [String: Any], "\(String(decoding: output, as: UTF8.self))")
        let errorKeys = ["code", "details", "hint", "message"]
        for (name, status) in [
            ("bad json", 400), ("wrong type", 400), ("unknown key", 400), ("oversized", 413), ("no jwt", 401), ("bad jwt", 401),
        ] {
            let answer = try #require(report[name] as? [Any], "\(name)")
            #expect(answer.first as? Int == status, "\(name): \(answer)")
            #expect(answer.last as? [String] == errorKeys, "\(name): PostgREST-shaped error, got \(answer)")
        }
        let after = try #require(report["pull after"] as? [Any])
        #expect(after.first as? Int == 200, "the server stays up")
        let page = try #require(after.last as? [String: Any])
        #expect((page["rows"] as? [Any])?.isEmpty == true, "nothing was partly written: \(page)")
    }
}
