import AccordTestSupport
import Foundation
import Testing
import Transport

/// A Python `http.server` on 127.0.0.1 that echoes each request as JSON: the real peer for the
/// libcurl client. It serves until the test stops it by its pid (SIGTERM), or two minutes pass.
final class EchoPeer {
    let process = ChildProcess()
    let port: Int

    static let script = #"""
        import http.server, json, signal
        signal.alarm(120)  # stops by itself whatever happens to the test
        class Echo(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def answer(self):
                length = int(self.headers.get("Content-Length") or 0)
                body = self.rfile.read(length)
                status = int(self.headers.get("X-Status") or 200)
                out = json.dumps({"method": self.command, "path": self.path, "body": body.decode(),
                                  "authorization": self.headers.get("Authorization")}).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(out)))
                self.end_headers()
                self.wfile.write(out)
            do_POST = answer
            do_GET = answer
            def log_message(self, *args): pass
        server = http.server.HTTPServer(("127.0.0.1", 0), Echo)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """#

    init() throws {
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.script]
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
        var line: [UInt8] = []
        while let byte = try pipe.fileHandleForReading.read(upToCount: 1)?.first, byte != 0x0A { line.append(byte) }
        guard let port = Int(String(decoding: line, as: UTF8.self)) else { throw CocoaError(.fileReadCorruptFile) }
        self.port = port
    }

    deinit {
        if process.isRunning { process.terminate() }
    }
}

@Suite("libcurl client against a Python peer")
struct CurlSessionTests {
    @Test("POSTs a body with headers and reads status and body; the connection is reused")
    func postAndReuse() async throws {
        let peer = try EchoPeer()
        let session = try CurlSession()
        let url = "http://127.0.0.1:\(peer.port)/rest/v1/rpc/pull"
        for round in 0..<2 {
            let response = try await session.send(
                "POST", url, headers: [("Authorization", "Bearer t\(round)"), ("Content-Type", "application/json")],
                body: Array(#"{"cursor":"0"}"#.utf8))
            #expect(response.status == 200)
            let echo = try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any]
            #expect(echo?["body"] as? String == #"{"cursor":"0"}"#)
            #expect(echo?["authorization"] as? String == "Bearer t\(round)")
            #expect(echo?["path"] as? String == "/rest/v1/rpc/pull")
        }
        let failing = try await session.send("POST", url, headers: [("X-Status", "401")], body: [])
        #expect(failing.status == 401, "an HTTP error status is an answer, not a thrown error")
    }

    @Test("a refused connection is a TransportError naming the URL")
    func refusedConnection() async throws {
        let session = try CurlSession()
        await #expect(throws: TransportError.self) {
            _ = try await session.send("POST", "http://127.0.0.1:1/x", body: [], timeout: 2)
        }
    }
}
