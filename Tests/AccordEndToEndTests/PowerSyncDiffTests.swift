import AccordTestSupport
import Foundation
import Testing

/// `accord diff` on a PowerSync recording: the recording replayed as the server lane replays it
/// (its fixture call the source step) on two PowerSync services, and their answers compared
/// line by line after decoding, `token_expires_in` lines aside.
@Suite("accord diff on a PowerSync recording", .serialized)
struct PowerSyncDiffTests {
    /// A session as `accord record` writes it in front of `accord serve --profile powersync
    /// --fixtures`: a source commit through the fixture endpoint, the stream (a keepalive, then
    /// the checkpoint of that commit), then a checkpoint request.
    static let recording = """
        {"accord_recording":1,"protocol":"kizunasync","redaction":{"enabled":true},"started_at":"2026-12-02T13:59:00Z","tool":"accord 0.1.0","upstream":"http://127.0.0.1:9"}
        {"exchange":1,"at_ms":10,"duration_ms":1,"http":{"method":"POST","path":"/accord/powersync/source","request_headers":{},"response_headers":{},"status":204},"identity":{"client":null,"user":null},"request":{"changes":[{"grant":{"bucket":"user-ada-todos","user_id":"user-ada"}},{"put":{"bucket":"user-ada-todos","object_type":"todos","object_id":"t1","data":"{\\"title\\":\\"a\\"}","checksum":3}}],"replicated":true},"response":null,"rpc":"http"}
        {"exchange":2,"at_ms":20,"duration_ms":5000,"http":{"method":"POST","path":"/sync/stream","request_headers":{},"response_headers":{},"status":200},"identity":{"client":"client-ada-phone","user":"user-ada"},"request":{"buckets":[],"client_id":"client-ada-phone","include_checksum":true,"raw_data":true},"response":[{"token_expires_in":3599},{"checkpoint":{"buckets":[{"bucket":"user-ada-todos","checksum":3,"count":1}],"last_op_id":"1"}},{"data":{"after":"0","bucket":"user-ada-todos","data":[{"checksum":3,"data":"{\\"title\\":\\"a\\"}","object_id":"t1","object_type":"todos","op":"PUT","op_id":"1"}],"has_more":false,"next_after":"1"}},{"checkpoint_complete":{"last_op_id":"1"}}],"rpc":"sync-stream"}
        {"exchange":3,"at_ms":5100,"duration_ms":1,"http":{"method":"POST","path":"/sync/checkpoint-request","request_headers":{},"response_headers":{},"status":200},"identity":{"client":"client-ada-phone","user":"user-ada"},"request":{"client_id":"client-ada-phone","checkpoint_request_id":"1"},"response":{"checkpoint_request_id":"1"},"rpc":"checkpoint-request"}

        """

    /// A service on 127.0.0.1 that takes every fixture call (204) and answers the stream with a
    /// keepalive first and the op's checksum one too high (in the checkpoint and the data line),
    /// and every checkpoint request with id 2.
    static let otherService = """
        import http.server
        LINES = [b'{"token_expires_in":60}', b'{"checkpoint":{"last_op_id":"1","buckets":[{"bucket":"user-ada-todos","checksum":4,"count":1}]}}',
                 b'{"data":{"bucket":"user-ada-todos","after":"0","next_after":"1","has_more":false,"data":[{"op_id":"1","op":"PUT","object_type":"todos","object_id":"t1","data":"{\\\\"title\\\\":\\\\"a\\\\"}","checksum":4}]}}',
                 b'{"checkpoint_complete":{"last_op_id":"1"}}']
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args): pass
            def do_POST(self):
                self.rfile.read(int(self.headers.get("Content-Length") or 0))
                if self.path.startswith("/accord/powersync/"):
                    self.send_response(204); self.send_header("Content-Length", "0"); self.end_headers(); return
                body = b"\\n".join(LINES) + b"\\n" if self.path == "/sync/stream" else b'{"checkpoint_request_id":"2"}'
                self.send_response(200); self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """

    static func write(_ folder: URL) throws -> String {
        let path = folder.appendingPathComponent("session.jsonl").path
        try Data(recording.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test("the embedded service against itself: every exchange step compared as a step, no differences, exit 0")
    func identical() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("diff.json").path
        let result = try await AccordBinary.run([
            "diff", "--server", "embedded", "--server", "embedded", try Self.write(folder), "--json", json,
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("1 case (1 passed, 0 failed, 0 skipped), 2 steps: 2 passed, 0 failed, 0 skipped"), "\(result.stdout)")
        let report = try String(contentsOfFile: json, encoding: .utf8)
        #expect(report.contains("step 2 sync-stream") && report.contains("step 3 checkpoint-request"), "\(report)")
    }

    @Test(
        "against a service whose checksums and request ids differ: each difference named by step, the NDJSON line on each side and the pointer, the keepalive not compared, exit 1"
    )
    func differentService() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let service = ChildProcess()
        service.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        service.arguments = ["python3", "-c", Self.otherService]
        let out = Pipe()
        service.standardOutput = out
        try service.run()
        defer { service.send(SIGKILL) }
        let url = "http://127.0.0.1:" + (try RecordTimeoutTests.firstLine(out)).trimmingCharacters(in: .whitespaces)
        let junit = folder.appendingPathComponent("diff.xml").path
        let result = try await AccordBinary.run([
            "diff", "--server", "embedded", "--server", url, "--jwt-secret", "diff-secret", try Self.write(folder), "--junit", junit,
        ])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("2 steps: 0 passed, 2 failed"), "\(result.stdout)")
        let expected = [
            "step 2 sync-stream NDJSON line 1 (embedded), line 2 (\(url)): lines differ at /checkpoint/buckets/0/checksum",
            "step 2 sync-stream NDJSON line 2 (embedded), line 3 (\(url)): lines differ at /data/data/0/checksum",
            "step 3 checkpoint-request: answers differ at /checkpoint_request_id",
        ]
        let report = try String(contentsOfFile: junit, encoding: .utf8)
        for line in expected { #expect(report.contains(line), "\(line)\n\(report)") }
        #expect(report.contains("AC-DIFF"))
        #expect(!report.contains("token_expires_in"), "the keepalive is not compared: \(report)")
        #expect(!report.contains("line 3 (embedded)"), "the complete lines are equal: \(report)")
    }
}
