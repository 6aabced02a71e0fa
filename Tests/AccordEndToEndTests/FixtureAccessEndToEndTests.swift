import AccordTestSupport
import Foundation
import Testing

/// `accord serve --fixtures` over loopback HTTP against what a web page could send: a
/// cross-origin "simple" POST (text/plain), a foreign `Origin`, a rebound `Host`. Each is 403
/// with a PostgREST-shaped body and leaves the fixture state as it was; the runner's own JSON
/// requests still work, and so do `OPTIONS *` and the refusal of a repeated Authorization.
@Suite("accord serve: who may call the fixture endpoint", .serialized)
struct FixtureAccessEndToEndTests {
    static let peer = #"""
        import base64, hashlib, hmac, http.client, json, socket, sys
        port, secret = int(sys.argv[1]), sys.argv[2]
        b64 = lambda b: base64.urlsafe_b64encode(b).rstrip(b"=").decode()
        user = "00000000-0000-4000-8000-a10000000001"
        def jwt(key):
            head = b64(json.dumps({"alg": "HS256", "typ": "JWT"}).encode())
            body = b64(json.dumps({"sub": user, "session_id": "00000000-0000-4000-8000-c10000000001"}).encode())
            sig = b64(hmac.new(key.encode(), f"{head}.{body}".encode(), hashlib.sha256).digest())
            return f"{head}.{body}.{sig}"
        server = {"min_schema_version": 1, "tables": {"todos": {"bucket_column": "owner_id"}}, "tombstone_ttl_days": 30}
        row = {"op": "upsert", "table": "todos", "pk": "00000000-0000-4000-8000-e10000000001",
               "columns": {"done": False, "owner_id": user, "title": "kept"}}
        def call(method, path, body, headers):
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
            c.putrequest(method, path, skip_host=True, skip_accept_encoding=True)
            for name, value in headers:
                c.putheader(name, value)
            data = body.encode() if body is not None else b""
            if body is not None:
                c.putheader("Content-Length", str(len(data)))
            c.endheaders(data)
            r = c.getresponse()
            raw = r.read()
            c.close()
            try:
                parsed = json.loads(raw) if raw else None
            except ValueError:
                parsed = raw.decode()
            return [r.status, sorted(parsed.keys()) if isinstance(parsed, dict) else parsed, r.getheader("Allow")]
        here = ("Host", f"127.0.0.1:{port}")
        json_type = ("Content-Type", "application/json")
        out = {}
        out["seed"] = call("POST", "/accord/fixtures/seed", json.dumps({"server": server, "history": [row]}), [here, json_type])
        wipe = json.dumps({"server": server, "history": []})
        out["text/plain"] = call("POST", "/accord/fixtures/seed", wipe, [here, ("Content-Type", "text/plain")])
        out["no type"] = call("POST", "/accord/fixtures/seed", wipe, [here])
        out["form"] = call("POST", "/accord/fixtures/seed", wipe, [here, ("Content-Type", "application/x-www-form-urlencoded")])
        out["foreign origin"] = call("POST", "/accord/fixtures/seed", wipe, [here, json_type, ("Origin", "http://evil.example")])
        out["null origin"] = call("POST", "/accord/fixtures/seed", wipe, [here, json_type, ("Origin", "null")])
        out["foreign host"] = call("POST", "/accord/fixtures/seed", wipe, [("Host", f"evil.example:{port}"), json_type])
        out["capabilities foreign host"] = call("GET", "/accord/fixtures/capabilities", None, [("Host", "evil.example")])
        out["localhost"] = call("POST", "/accord/fixtures/step", json.dumps({"n": 1}), [("Host", f"localhost:{port}"), ("Content-Type", "application/json; charset=utf-8"), ("Origin", "http://localhost:3000")])
        out["ipv6 host"] = call("POST", "/accord/fixtures/step", json.dumps({"n": 2}), [("Host", "[::1]"), json_type])
        out["options"] = call("OPTIONS", "*", None, [here])
        good = [here, json_type, ("Content-Profile", "kizunasync"), ("Authorization", "Bearer " + jwt(secret))]
        pull = json.dumps({"buckets": [{"params": {"owner_id": user}, "table": "todos"}], "cursor": "0", "schema_version": 1})
        out["two authorizations"] = call("POST", "/rest/v1/rpc/pull", pull, good + [("Authorization", "Bearer " + jwt(secret))])
        c = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
        c.request("POST", "/rest/v1/rpc/pull", body=pull, headers=dict(good))
        r = c.getresponse()
        out["pull after"] = [r.status, json.loads(r.read())]
        print(json.dumps(out))
        """#

    @Test("page-shaped fixture requests are 403 and change nothing; JSON from loopback, OPTIONS * and one Authorization work")
    func pageShapedRequests() throws {
        let served = try ServeEndToEndTests.Served(["--jwt-secret", "access-secret", "--fixtures"])
        defer { _ = served.stop() }
        let peer = ChildProcess()
        peer.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        peer.arguments = ["python3", "-c", Self.peer, String(served.port), "access-secret"]
        let pipe = Pipe()
        peer.standardOutput = pipe
        try peer.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        peer.waitUntilExit()
        let report = try #require(
            try JSONSerialization.jsonObject(with: output) as? [String: Any], "\(String(decoding: output, as: UTF8.self))")
        func answer(_ name: String) throws -> [Any] { try #require(report[name] as? [Any], "\(name): \(report)") }
        #expect(try answer("seed").first as? Int == 200)
        for name in ["text/plain", "no type", "form", "foreign origin", "null origin", "foreign host", "capabilities foreign host"] {
            let refused = try answer(name)
            #expect(refused.first as? Int == 403, "\(name): \(refused)")
            #expect(refused.dropFirst().first as? [String] == ["code", "details", "hint", "message"], "\(name): \(refused)")
        }
        #expect(try answer("localhost").first as? Int == 204)
        #expect(try answer("ipv6 host").first as? Int == 204)
        let options = try answer("options")
        #expect(options.first as? Int == 204)
        #expect(options.last as? String == "GET, POST")
        #expect(try answer("two authorizations").first as? Int == 400)
        let after = try answer("pull after")
        #expect(after.first as? Int == 200)
        let page = try #require(after.last as? [String: Any])
        let rows = try #require(page["rows"] as? [[String: Any]], "\(page)")
        #expect(rows.count == 1, "the first seed's row is still there: no refused seed wiped it: \(page)")
    }
}
