import AccordTestSupport
import Foundation
import Testing

@testable import Recorder

/// An https upstream (Python's ssl module with a certificate made by the openssl tool for this
/// test) behind the recording proxy: trusted through `upstreamCAFile`, refused without it.
@Suite("Recording proxy: an https upstream")
struct HTTPSUpstreamTests {
    /// Answers GET with its path as JSON over TLS; prints its port; exits by itself after 60 s.
    static let server = """
        import http.server, json, ssl, sys, threading
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def do_GET(self):
                body = json.dumps({"path": self.path, "tls": True}).encode()
                self.send_response(200)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            def log_message(self, *args): pass
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
        context.load_cert_chain(sys.argv[1], sys.argv[2])
        server.socket = context.wrap_socket(server.socket, server_side=True)
        print(server.server_address[1], flush=True)
        threading.Timer(60, server.shutdown).start()
        server.serve_forever()
        """

    /// A self-signed certificate for 127.0.0.1 and its key, in `folder`.
    static func makeCertificate(in folder: String) throws -> (certificate: String, key: String) {
        let certificate = folder + "/cert.pem"
        let key = folder + "/key.pem"
        let openssl = ChildProcess()
        openssl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        openssl.arguments = [
            "openssl", "req", "-x509", "-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes", "-days", "1",
            "-subj", "/CN=127.0.0.1", "-addext", "subjectAltName=IP:127.0.0.1", "-keyout", key, "-out", certificate,
        ]
        openssl.standardOutput = FileHandle.nullDevice
        openssl.standardError = FileHandle.nullDevice
        try openssl.run()
        openssl.waitUntilExit()
        guard openssl.terminationStatus == 0 else { throw CocoaError(.fileWriteUnknown) }
        return (certificate, key)
    }

    /// Everything that blocks (openssl, starting Python, the exchanges) runs on a thread of its
    /// own, never on the concurrency pool.
    static func onThread<T: Sendable>(_ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread { continuation.resume(with: Result { try work() }) }
        }
    }

    /// The proxy's reply to GET /rest/v1/probe through an https upstream, trusting `trusted`.
    static func fetch(trustingCertificate trusted: Bool) async throws -> (reply: RawClient.Reply, exchanges: [RecordedExchangeSummary]) {
        let folder = NSTemporaryDirectory() + "accord-https-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let (certificate, key) = try await onThread { try makeCertificate(in: folder) }
        let python = ChildProcess()
        python.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        python.arguments = ["python3", "-c", server, certificate, key]
        let out = Pipe()
        python.standardOutput = out
        python.standardError = FileHandle.nullDevice
        try python.run()
        // The server never ends by itself; ChildProcess reaps it.
        defer { python.send(SIGKILL) }
        let port = try await onThread { () throws -> String in
            var line: [UInt8] = []
            while let byte = try out.fileHandleForReading.read(upToCount: 1)?.first, byte != 0x0A { line.append(byte) }
            return String(decoding: line, as: UTF8.self)
        }
        let harness = try RecorderHarness(upstreamURL: "https://127.0.0.1:\(port)", upstreamCAFile: trusted ? certificate : nil)
        let reply = await RawClient.exchange(port: harness.port, ["GET /rest/v1/probe HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n"])
        let (_, exchanges) = try RecorderHarness.read(try await harness.finish())
        return (
            reply, exchanges.map { RecordedExchangeSummary(status: $0.status, error: $0.responseHeaders[":accord-error"]?.stringValue) }
        )
    }

    struct RecordedExchangeSummary: Sendable {
        var status: Int
        var error: String?
    }

    @Test("with its certificate authority given, the https upstream's answer is relayed and recorded")
    func trusted() async throws {
        let (reply, exchanges) = try await Self.fetch(trustingCertificate: true)
        #expect(reply.status == 200, "\(reply.text)")
        #expect(reply.body.contains(#""path": "/rest/v1/probe""#), "\(reply.text)")
        #expect(reply.body.contains(#""tls": true"#))
        #expect(exchanges.map(\.status) == [200])
        #expect(exchanges.first?.error == nil)
    }

    @Test("without it, the self-signed certificate is refused: 502 naming the certificate problem, recorded")
    func untrusted() async throws {
        let (reply, exchanges) = try await Self.fetch(trustingCertificate: false)
        #expect(reply.status == 502, "\(reply.text)")
        let error = try #require(exchanges.first?.error)
        #expect(error.lowercased().contains("certificate"), "\(error)")
        #expect(exchanges.map(\.status) == [502])
    }
}
