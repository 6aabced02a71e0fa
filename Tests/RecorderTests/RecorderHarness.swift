import Capture
import Corpus
import Foundation
import HTTP
import JSON
import KizunaWire
import Recorder
import Synchronization

/// An in-process upstream (the project's own HTTPServer) and a recording proxy in front of it,
/// writing to a fresh temporary file.
struct RecorderHarness {
    let upstream: HTTPServer
    let proxy: RecordingProxy
    let file: String

    /// Paths the upstream answers: /echo (the request as JSON), /stream (three NDJSON lines 300 ms
    /// apart, chunked), /rest/v1/rpc/{pull,push} (a fixed body carrying a refresh token), /gzip (binary bytes
    /// labelled gzip), /slow-body (the head, then the body 500 ms later), /big (7.8 MiB of a byte pattern),
    /// /silent (nothing for 8 s), /silent-after-head (a chunked head and one line, then nothing for 8 s),
    /// /long-stream (eight NDJSON lines 300 ms apart), /gated?NAME (an answer once `open(gate:)` is called).
    static func startUpstream() throws -> HTTPServer {
        try HTTPServer.start(HTTPServerConfiguration(gracePeriod: .milliseconds(200))) { request, stream in
            switch request.path {
            case "/stream":
                sendLines(3, to: stream)
            case "/slow-body":
                stream.sendHead(status: 200, headers: ["Content-Type": "text/plain"], contentLength: 4)
                stream.flush()
                Thread.sleep(forTimeInterval: 0.5)
                stream.send(Array("done".utf8))
                stream.finish()
            case "/big":
                // 7.8 MiB of a byte pattern, as fast as the proxy takes it.
                stream.sendHead(status: 200, headers: ["Content-Type": "application/octet-stream"], contentLength: Self.bigBody.count)
                Self.bigBody.withUnsafeBytes { whole in
                    var offset = 0
                    while offset < whole.count,
                        stream.send(UnsafeRawBufferPointer(rebasing: whole[offset..<min(offset + 65536, whole.count)]))
                    {
                        offset += 65536
                    }
                }
                stream.finish()
            case "/gated":
                // Answers once the test opens the gate named by the query (at most 120 s: under a
                // loaded full suite a test can take more than 30 s to reach its gate).
                let name = request.query ?? ""
                let clock = ContinuousClock()
                let deadline = clock.now + .seconds(120)
                while !Self.openGates.withLock({ $0.contains(name) }), clock.now < deadline { Thread.sleep(forTimeInterval: 0.01) }
                stream.respond(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array("gated".utf8)))
            case "/long-stream":
                sendLines(8, to: stream)
            case "/silent":
                Thread.sleep(forTimeInterval: 8)
                stream.respond(HTTPResponse(status: 200, headers: ["Content-Type": "text/plain"], body: Array("late".utf8)))
            case "/silent-after-head":
                stream.sendHead(status: 200, headers: ["Content-Type": "application/x-ndjson"], contentLength: nil)
                stream.send(Array("{\"line\":1}\n".utf8))
                stream.flush()
                Thread.sleep(forTimeInterval: 8)
                stream.finish()
            case "/gzip":
                let bytes: [UInt8] = [0x1F, 0x8B, 0x08, 0x00, 0xFF, 0xFE, 0x00, 0x0D, 0x0A, 0x80, 0x81]
                stream.respond(HTTPResponse(status: 200, headers: ["Content-Encoding": "gzip", "Vary": "Accept-Encoding"], body: bytes))
            case "/rest/v1/rpc/pull", "/rest/v1/rpc/push":
                let body = #"{"cursor":"0","has_more":false,"refresh_token":"resp-canary-refresh-77","rows":[]}"#
                stream.respond(HTTPResponse(status: 200, headers: ["Content-Type": "application/json"], body: Array(body.utf8)))
            default:
                var headers = JSONObject()
                for field in request.headers { headers[field.name.lowercased()] = .string(field.value) }
                let echo: JSONValue = [
                    "method": .string(request.method), "target": .string(request.target), "headers": .object(headers),
                    "body": .string(String(decoding: request.body, as: UTF8.self)),
                ]
                stream.respond(
                    HTTPResponse(
                        status: 200, headers: ["Content-Type": "application/json", "X-Upstream": "yes"],
                        body: Array(CanonicalJSON.compact(echo).utf8)))
            }
        }
    }

    /// A chunked NDJSON answer of `count` lines `{"line":N}`, 300 ms apart.
    static func sendLines(_ count: Int, to stream: HTTPResponseStream) {
        stream.sendHead(status: 200, headers: ["Content-Type": "application/x-ndjson"], contentLength: nil)
        for index in 1...count {
            stream.send(Array("{\"line\":\(index)}\n".utf8))
            if index < count { Thread.sleep(forTimeInterval: 0.3) }
        }
        stream.finish()
    }

    /// The gates of /gated that tests have opened.
    static let openGates = Mutex<Set<String>>([])

    /// Opens a gate of /gated: its requests are answered.
    static func open(gate name: String) { _ = openGates.withLock { $0.insert(name) } }

    /// The body of /big: 251 × 2^15 bytes (7.8 MiB), byte i is i % 251; doubled by copies, which
    /// debug builds do fast.
    static let bigBody: [UInt8] = {
        var bytes = (0..<251).map { UInt8($0) }
        for _ in 0..<15 { bytes.append(contentsOf: bytes) }
        return bytes
    }()

    init(
        upstreamURL: String? = nil, policy: RedactionPolicy = RedactionPolicy(), readTimeout: Duration = .seconds(10),
        idleTimeout: Duration = .seconds(60),
        durability: RecordingWriter.Durability = .queued, maxConnections: Int? = nil, upstreamTimeout: Duration? = .seconds(60),
        upstreamCAFile: String? = nil, eventLoops: Int? = nil, bufferBudget: Int? = nil, recordedLineLimit: Int? = nil
    ) throws {
        upstream = try Self.startUpstream()
        file = NSTemporaryDirectory() + "accord-recorder-\(UUID().uuidString).jsonl"
        var configuration = try RecorderConfiguration(
            upstream: upstreamURL ?? "http://127.0.0.1:\(upstream.port)", output: file, redaction: policy, tool: "accord test")
        configuration.readTimeout = readTimeout
        configuration.idleTimeout = idleTimeout
        configuration.durability = durability
        if let eventLoops { configuration.eventLoops = eventLoops }
        configuration.gracePeriod = .milliseconds(500)
        configuration.upstreamTimeout = upstreamTimeout
        configuration.upstreamCAFile = upstreamCAFile
        if let maxConnections { configuration.maxConnections = maxConnections }
        if let bufferBudget { configuration.bufferBudget = bufferBudget }
        if let recordedLineLimit { configuration.recordedLineLimit = recordedLineLimit }
        proxy = try RecordingProxy.start(configuration)
    }

    var port: UInt16 { proxy.endpoint.port }

    /// Stops both servers and returns the recording's bytes (the file is removed).
    func finish() async throws -> [UInt8] {
        await proxy.stop()
        await upstream.stop()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: file)))
        try? FileManager.default.removeItem(atPath: file)
        return bytes
    }

    /// Reads a recording with Corpus's reader.
    /// Waits (up to 10 s) until `condition` holds: what the proxy does in its own time (notice a
    /// client gone, close an idle socket) is awaited, not given a fixed delay that a loaded
    /// machine outlasts.
    /// Waits until `condition` holds or 60 s pass: long enough for a run whose other tests
    /// (chromium, driver processes, whole-corpus runs) keep both cores busy; a condition that
    /// never holds still fails the expectation after it.
    static func waitUntil(within limit: Duration = .seconds(60), _ condition: () -> Bool) async throws {
        let clock = ContinuousClock()
        let deadline = clock.now + limit
        while !condition(), clock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
    }

    static func read(_ bytes: [UInt8]) throws -> (RecordingHeader?, [RecordedExchange]) {
        var reader = RecordingReader(file: "test.jsonl")
        var header: RecordingHeader?
        var exchanges: [RecordedExchange] = []
        let collect: (RecordingReader.Item) throws(CorpusError) -> Void = { item in
            switch item {
            case .header(let value): header = value
            case .exchange(let value): exchanges.append(value)
            }
        }
        try bytes.withUnsafeBufferPointer { buffer throws(CorpusError) in try reader.feed(buffer, collect) }
        try reader.finish(collect)
        return (header, exchanges)
    }

    /// An unsigned JWT with the given claims (the proxy reads it without verifying).
    static func jwt(sub: String, session: String) -> String {
        let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let payload = Base64URL.encode(Array("{\"sub\":\"\(sub)\",\"session_id\":\"\(session)\",\"role\":\"authenticated\"}".utf8))
        return "\(header).\(payload).c2lnbmF0dXJlLWNhbmFyeS1zaWc"
    }
}
