import AccordTestSupport
import Foundation
import JSON

/// A small NDJSON upstream for `accord record` (a Python fixture on 127.0.0.1): it answers the
/// requests it gets, in order, with the answers it was given, each for one path: a sync stream
/// as NDJSON lines sent one chunk a line (LF or CRLF), optionally cut mid-line by closing the
/// connection before the length it announced; any other answer as a JSON body. A request for
/// another path than the next answer's gets 404.
struct PowerSyncUpstream {
    /// One answer.
    struct Answer {
        var path: String
        var status = 200
        /// The NDJSON lines (compact JSON), for a stream.
        var lines: [String]?
        /// A JSON body, otherwise.
        var body: JSONValue?
        var crlf = false
        /// Bytes of a line sent after the whole ones, before the connection is closed.
        var cut: String?
        /// After the lines, a `token_expires_in` keep-alive line every 0.2 s until the proxy
        /// goes away, as a live sync stream stays open.
        var holdOpen = false

        var json: JSONValue {
            var object: JSONObject = ["path": .string(path), "status": .number(JSONNumber(status)), "crlf": .bool(crlf)]
            if let lines { object["ndjson"] = .array(lines.map { .string($0) }) }
            if let body { object["json"] = .string(CanonicalJSON.compact(body)) }
            if let cut { object["cut"] = .string(cut) }
            if holdOpen { object["hold"] = true }
            return .object(object)
        }
    }

    static let script = """
        import json, socket, sys, time, http.server
        queue = json.load(open(sys.argv[1]))  # answered in arrival order; the test sends one request at a time
        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"
            def log_message(self, *args): pass
            def answer(self):
                length = int(self.headers.get("Content-Length") or 0)
                if length: self.rfile.read(length)
                path = self.path.split("?")[0]
                if not queue or queue[0]["path"] != path:
                    body = b'{"error":"unexpected request"}'
                    self.send_response(404); self.send_header("Content-Length", str(len(body))); self.end_headers()
                    self.wfile.write(body); return
                entry = queue.pop(0)
                if "ndjson" in entry:
                    eol = "\\r\\n" if entry["crlf"] else "\\n"
                    pieces = [(line + eol).encode() for line in entry["ndjson"]]
                    self.send_response(entry["status"]); self.send_header("Content-Type", "application/x-ndjson")
                    if "cut" in entry:
                        self.send_header("Content-Length", str(sum(map(len, pieces)) + 4096)); self.end_headers()
                        for piece in pieces: self.wfile.write(piece); self.wfile.flush()
                        self.wfile.write(entry["cut"].encode()); self.wfile.flush()
                        self.close_connection = True
                        self.connection.shutdown(socket.SHUT_RDWR)
                        return
                    self.send_header("Transfer-Encoding", "chunked"); self.end_headers()
                    for piece in pieces:
                        self.wfile.write(b"%x\\r\\n%s\\r\\n" % (len(piece), piece)); self.wfile.flush()
                    while entry.get("hold"):
                        piece = ('{"token_expires_in":3600}' + eol).encode()
                        try:
                            self.wfile.write(b"%x\\r\\n%s\\r\\n" % (len(piece), piece)); self.wfile.flush()
                        except OSError:
                            return
                        time.sleep(0.2)
                    self.wfile.write(b"0\\r\\n\\r\\n"); self.wfile.flush()
                else:
                    body = entry["json"].encode()
                    self.send_response(entry["status"]); self.send_header("Content-Type", "application/json")
                    self.send_header("Content-Length", str(len(body))); self.end_headers(); self.wfile.write(body)
            do_GET = answer
            do_POST = answer
        server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """

    /// One request the test sends through the proxy with curl.
    struct Call {
        var method: String
        /// Path and query.
        var target: String
        var body: JSONValue?
        var headers: [String] = []
        /// Leave curl (or the driver) running once this many answer lines arrived (a stream
        /// held open), and go on; it ends when the proxy stops (the driver at the end of its input).
        var leaveOpenAfterLines: Int?
        /// In place of curl: these accord-driver/1 request lines go to `accord driver --profile
        /// powersync` (each `{proxy}` replaced by the proxy's URL), and its answer lines are the body.
        var driver: [String]?
    }

    /// What a session through `accord record` left.
    struct Session {
        var answers: [String]
        var recording: String
        var status: Int32
    }

    /// Starts the upstream and `accord record` in front of it, sends the calls in order with curl
    /// (each answer's body collected), stops the proxy with SIGINT and the upstream by its pid.
    /// Blocking: run it on a thread of its own.
    static func session(answers: [Answer], calls: [Call], folder: URL) throws -> Session {
        let spec = folder.appendingPathComponent("upstream.json")
        try Data(CanonicalJSON.compact(.array(answers.map(\.json))).utf8).write(to: spec)
        let upstream = ChildProcess()
        upstream.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        upstream.arguments = ["python3", "-c", script, spec.path]
        let upstreamOut = Pipe()
        upstream.standardOutput = upstreamOut
        try upstream.run()
        defer { upstream.send(SIGKILL) }
        let upstreamPort = try RecordTimeoutTests.firstLine(upstreamOut).trimmingCharacters(in: .whitespaces)
        return try record(upstream: "http://127.0.0.1:\(upstreamPort)", calls: calls, folder: folder)
    }

    /// Starts `accord record` in front of `upstream`, sends the calls in order with curl (each
    /// answer's body collected), and stops the proxy with SIGINT. Blocking.
    static func record(upstream: String, calls: [Call], folder: URL, options: [String] = []) throws -> Session {
        let recording = folder.appendingPathComponent("session.jsonl").path
        let proxy = ChildProcess()
        proxy.executableURL = URL(fileURLWithPath: AccordBinary.path)
        proxy.arguments =
            [
                "record", "--upstream", upstream, "--listen", "127.0.0.1:0", "--out", recording, "--quiet",
            ] + options
        let proxyOut = Pipe()
        proxy.standardOutput = proxyOut
        proxy.standardError = FileHandle.nullDevice
        try proxy.run()
        defer { proxy.send(SIGKILL) }
        let listening = try RecordTimeoutTests.firstLine(proxyOut)
        guard let colon = listening.range(of: "127.0.0.1:"), let port = Int(listening[colon.upperBound...].prefix(while: \.isNumber))
        else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no listening line: \(listening)"]) }

        var bodies: [String] = []
        var open: [(ChildProcess, Pipe, [UInt8], Int)] = []
        // A call that throws leaves the drivers and curls held open behind it: they are killed.
        defer { for (process, _, _, _) in open { process.send(SIGKILL) } }
        var inputs: [Pipe] = []
        for (index, call) in calls.enumerated() {
            if let requests = call.driver {
                let lines = requests.map { $0.replacingOccurrences(of: "{proxy}", with: "http://127.0.0.1:\(port)") }
                guard let answers = call.leaveOpenAfterLines else {
                    bodies.append(try drive(lines))
                    continue
                }
                let (driver, input, output) = try startDriver()
                try input.fileHandleForWriting.write(contentsOf: Data(lines.map { $0 + "\n" }.joined().utf8))
                var seen: [UInt8] = []
                while seen.count(where: { $0 == 0x0A }) < answers, let byte = try output.fileHandleForReading.read(upToCount: 1)?.first {
                    seen.append(byte)
                }
                open.append((driver, output, seen, bodies.count))
                inputs.append(input)
                bodies.append("")
                continue
            }
            var arguments = ["curl", "-s", "-N", "--max-time", "20", "-X", call.method]
            for header in call.headers { arguments += ["-H", header] }
            if let body = call.body {
                let file = folder.appendingPathComponent("request-\(index).json")
                try Data(CanonicalJSON.compact(body).utf8).write(to: file)
                arguments += ["-H", "Content-Type: application/json", "--data-binary", "@" + file.path]
            }
            arguments.append("http://127.0.0.1:\(port)\(call.target)")
            let curl = ChildProcess()
            curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
            curl.arguments = arguments
            let out = Pipe()
            curl.standardOutput = out
            try curl.run()
            if let lines = call.leaveOpenAfterLines {
                // Blocking reads until the lines arrived: the stream is then open through the proxy.
                var seen: [UInt8] = []
                while seen.count(where: { $0 == 0x0A }) < lines, let byte = try out.fileHandleForReading.read(upToCount: 1)?.first {
                    seen.append(byte)
                }
                open.append((curl, out, seen, bodies.count))
                bodies.append("")
                continue
            }
            bodies.append(String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self))
            curl.waitUntilExit()
        }
        proxy.interrupt()
        _ = proxyOut.fileHandleForReading.readDataToEndOfFile()
        proxy.waitUntilExit()
        // A driver left open ends at the end of its input, closing its store.
        for input in inputs { try? input.fileHandleForWriting.close() }
        for (process, out, seen, index) in open {
            let rest = out.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            bodies[index] = String(decoding: seen + rest, as: UTF8.self)
        }
        let recorded = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: recording))) ?? Data(), as: UTF8.self)
        return Session(answers: bodies, recording: recorded, status: proxy.terminationStatus)
    }

    /// Runs the reference PowerSync client's driver on `requests` and returns what it answered.
    static func drive(_ requests: [String]) throws -> String {
        let (driver, input, output) = try startDriver()
        defer { driver.send(SIGKILL) }
        try input.fileHandleForWriting.write(contentsOf: Data(requests.map { $0 + "\n" }.joined().utf8))
        try input.fileHandleForWriting.close()
        let answers = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        driver.waitUntilExit()
        return answers
    }

    /// Starts `accord driver --profile powersync`: the process, its input and its output.
    static func startDriver() throws -> (ChildProcess, Pipe, Pipe) {
        let driver = ChildProcess()
        driver.executableURL = URL(fileURLWithPath: AccordBinary.path)
        driver.arguments = ["driver", "--profile", "powersync"]
        let input = Pipe()
        let output = Pipe()
        driver.standardInput = input
        driver.standardOutput = output
        driver.standardError = FileHandle.nullDevice
        try driver.run()
        return (driver, input, output)
    }

    /// Runs `record` on a thread of its own.
    static func recording(upstream: String, calls: [Call], folder: URL, options: [String] = []) async throws -> Session {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try record(upstream: upstream, calls: calls, folder: folder, options: options) })
            }
        }
    }

    /// Runs `session` on a thread of its own.
    static func run(answers: [Answer], calls: [Call], folder: URL) async throws -> Session {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try session(answers: answers, calls: calls, folder: folder) })
            }
        }
    }
}
