import AccordTestSupport
import Foundation
import Testing

/// Over a hundred canary secrets, four kinds in every placement (`SecretCanaries`), sent
/// through every way traffic enters Accord: `accord record` between a client and an upstream
/// that answers with secrets of its own, a browser's HAR through `accord convert`. Then every
/// output is searched: the recording, each convert direction, the console, JUnit and JSON of
/// `accord check` and of both lanes, and the stdout and stderr of every accord process.
@Suite("Secrets never reach a file, a report or a log", .serialized)
struct RecordCanaryTests {
    typealias Kind = SecretCanaries.Kind
    static let serveSecret = "canary-serve-secret"
    static let recordedBodyLimit = 16 * 1024 * 1024

    static func value(_ kind: Kind, _ placement: SecretCanaries.Placement) -> String { SecretCanaries.value(kind, placement) }

    static func curl(_ arguments: [String]) throws {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl", "-s", "-g", "-o", "/dev/null", "--max-time", "20"] + arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
    }

    /// A child whose first stdout line names its port; the rest of its output goes to files.
    static func started(_ executable: String, _ arguments: [String], stderr: URL) throws -> (ChildProcess, Pipe, Int) {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        let out = Pipe()
        _ = FileManager.default.createFile(atPath: stderr.path, contents: nil)
        process.standardOutput = out
        process.standardError = try FileHandle(forWritingTo: stderr)
        try process.run()
        var line: [UInt8] = []
        while let byte = try out.fileHandleForReading.read(upToCount: 1)?.first, byte != 0x0A { line.append(byte) }
        let text = String(decoding: line, as: UTF8.self)
        let digits = text.range(of: "127.0.0.1:").map { String(text[$0.upperBound...]) } ?? text
        return (process, out, Int(digits.prefix(while: \.isNumber)) ?? 0)
    }

    /// The four requests that carry one kind through the proxy.
    static func send(_ kind: Kind, to base: String) throws {
        let redirect = SecretCanaries.percentEncoded("https://app.example/cb?refresh_token=\(value(kind, .encodedQueryValue))")
        let path =
            "/auth/v1/canary/\(value(kind, .pathSegment));token=\(value(kind, .pathParameter))"
            + "?access_token=\(value(kind, .query))&api%6Bey=\(value(kind, .encodedQueryName))&redirect=\(redirect)&n=1"
        let other = kind == .jwt ? "sdk=js; v=\(value(kind, .otherHeader))" : "sdk=js; refresh_token=\(value(kind, .otherHeader))"
        let headers = [
            "-H", "Authorization: Bearer \(value(kind, .authorization))", "-H", "apikey: \(value(kind, .apikey))",
            "-H", "Cookie: sb-access=\(value(kind, .cookie))", "-H", "X-Client-Info: \(other)", "-H", "X-Canary-Kind: \(kind.rawValue)",
        ]
        let json =
            #"{"refresh_token":"\#(value(kind, .jsonString))","secrets":{"value":"\#(value(kind, .jsonObject))"},"#
            + #""passwords":["\#(value(kind, .jsonArray))"],"note":"hello"}"#
        try curl(headers + ["-H", "Content-Type: application/json", "--data-binary", json, base + path])
        let form = "user[password]=\(value(kind, .bracketFormName))&pass%77ord=\(value(kind, .encodedFormName))&grant_type=password"
        try curl(headers + ["-H", "Content-Type: application/x-www-form-urlencoded", "--data-binary", form, base + "/auth/v1/token"])
        let ndjson =
            "{\"a\":1}\n{\"token\":{\"v\":\"\(value(kind, .ndjsonObject))\"},\"b\":[1]}\n{\"password\":[\"\(value(kind, .ndjsonArray))\"]}\n"
        try curl(headers + ["-H", "Content-Type: application/x-ndjson", "--data-binary", ndjson, base + "/functions/v1/events"])
        let deep =
            String(repeating: "[", count: 600) + #"{"api_key":{"v":"\#(value(kind, .deepJSON))"}}"# + String(repeating: "]", count: 600)
        try curl(headers + ["-H", "Content-Type: application/json", "--data-binary", deep, base + "/functions/v1/deep"])
    }

    /// A HAR as a browser saves it: credentials in clear in headers, URLs and bodies.
    static func browserHAR() throws -> Data {
        let entries: [[String: Any]] = Kind.allCases.map { kind in
            let other = kind == .jwt ? "sdk=js v=\(value(kind, .harOtherHeader))" : "sdk=js; refresh_token=\(value(kind, .harOtherHeader))"
            return [
                "startedDateTime": "2026-12-01T10:00:00.000Z", "time": 3,
                "request": [
                    "method": "POST",
                    "url":
                        "https://demo.supabase.co/auth/v1/magic/\(value(kind, .harPathSegment))?access_token=\(value(kind, .harQuery))&x=1",
                    "headers": [
                        ["name": "Authorization", "value": "Bearer \(value(kind, .harAuthorization))"],
                        ["name": "X-Client-Info", "value": other],
                    ],
                    "postData": ["mimeType": "application/json", "text": #"{"email":"a@b.c","password":"\#(value(kind, .harPassword))"}"#],
                ],
                "response": [
                    "status": 200,
                    "headers": [
                        ["name": "Location", "value": "https://app.example/cb#refresh_token=\(value(kind, .harLocationFragment))"]
                    ],
                    "content": ["mimeType": "application/json", "text": #"{"refresh_token":"\#(value(kind, .harResponseRefresh))"}"#],
                ],
            ]
        }
        return try JSONSerialization.data(withJSONObject: ["log": ["version": "1.2", "creator": ["name": "browser"], "entries": entries]])
    }

    @Test("over a hundred canaries through record, convert, check and both lanes: no output of any accord process holds one")
    func canaries() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputs = folder.appendingPathComponent("inputs")
        let outputs = folder.appendingPathComponent("outputs")
        for made in [inputs, outputs] { try FileManager.default.createDirectory(at: made, withIntermediateDirectories: true) }
        func output(_ name: String) -> String { outputs.appendingPathComponent(name).path }

        let served = try ServeEndToEndTests.Served(["--jwt-secret", Self.serveSecret])
        let script = inputs.appendingPathComponent("upstream.py")
        try Data(SecretCanaries.upstreamScript().utf8).write(to: script)
        let (upstream, _, upstreamPort) = try Self.started(
            "/usr/bin/python3",
            [script.path, "http://127.0.0.1:\(served.port)", Self.serveSecret, String(Self.recordedBodyLimit), SecretCanaries.cutJWT],
            stderr: inputs.appendingPathComponent("upstream.err"))
        defer { Self.stop(upstream) }
        let recording = output("canary.jsonl")
        let (proxy, proxyOut, port) = try Self.started(
            AccordBinary.path,
            ["record", "--upstream", "http://127.0.0.1:\(upstreamPort)", "--listen", "127.0.0.1:0", "--out", recording],
            stderr: outputs.appendingPathComponent("record.err"))
        defer { if proxy.isRunning { proxy.terminate() } }
        let base = "http://127.0.0.1:\(port)"
        for kind in Kind.allCases { try Self.send(kind, to: base) }
        let pull =
            #"{"buckets":[{"params":{"owner_id":"00000000-0000-4000-8000-a10000000001"},"table":"todos"}],"client_id":"00000000-0000-4000-8000-c10000000001","cursor":"0","schema_version":1}"#
        try Self.curl([
            "-H", "Authorization: Bearer \(Self.value(.jwt, .authorization))", "-H", "Content-Type: application/json", "--data-binary",
            pull,
            base + "/rest/v1/rpc/pull",
        ])
        try Self.curl([base + "/big"])
        proxy.interrupt()
        proxy.waitUntilExit()
        try proxyOut.fileHandleForReading.readDataToEndOfFile().write(to: URL(fileURLWithPath: output("record.out")))
        Self.stop(upstream)

        let recorded = String(decoding: try Data(contentsOf: URL(fileURLWithPath: recording)), as: UTF8.self)
        let lines = recorded.split(separator: "\n")
        #expect(lines.count == 1 + 4 * Kind.allCases.count + 2, "every request is recorded")
        let placeholders = recorded.components(separatedBy: "<redacted:").count - 1
        #expect(placeholders >= 4 * 21, "the secrets reached the recording, as placeholders (\(placeholders))")
        #expect(recorded.contains(":accord-truncated"), "the answer past the body limit was cut")

        let browser = inputs.appendingPathComponent("browser.har").path
        try Self.browserHAR().write(to: URL(fileURLWithPath: browser))
        var runs: [(String, [String])] = [
            ("convert-har", ["convert", recording, output("rec.har")]),
            ("convert-transcript", ["convert", recording, output("rec.json")]),
            ("convert-back", ["convert", output("rec.har"), output("har.jsonl")]),
            ("convert-browser", ["convert", browser, output("browser.jsonl")]),
            ("convert-browser-har", ["convert", output("browser.jsonl"), output("browser-out.har")]),
            ("check", ["check", recording, "--junit", output("check.xml"), "--json", output("check.json")]),
            (
                "check-browser",
                ["check", output("browser.jsonl"), "--junit", output("check-browser.xml"), "--json", output("check-browser.json")]
            ),
            ("server-lane", ["run", "--server", "embedded", recording, "--junit", output("server.xml"), "--json", output("server.json")]),
            (
                "client-lane",
                ["run", "--client", "accord driver", recording, "--junit", output("client.xml"), "--json", output("client.json")]
            ),
        ]
        runs.append(("convert-transcript-back", ["convert", output("rec.json"), output("transcript.jsonl")]))
        for (name, arguments) in runs {
            let result = try await AccordBinary.run(arguments)
            try Data(result.stdout.utf8).write(to: URL(fileURLWithPath: output("\(name).out")))
            try Data(result.stderr.utf8).write(to: URL(fileURLWithPath: output("\(name).err")))
            if name.hasPrefix("convert") { #expect(result.status == 0, "\(name): \(result.stderr)") }
        }
        let stopped = served.stop()
        try Data(stopped.rest.utf8).write(to: URL(fileURLWithPath: output("serve.out")))

        let needles = inputs.appendingPathComponent("needles.txt")
        try Data(SecretCanaries.needles.joined(separator: "\n").utf8).write(to: needles)
        #expect(SecretCanaries.needles.count >= 60 + 28)
        let found = try Self.grep(needles: needles.path, in: outputs.path)
        #expect(found.isEmpty, "secrets found:\n\(found.prefix(2_000))")
        let written = try FileManager.default.contentsOfDirectory(atPath: outputs.path)
        #expect(written.count >= 30, "\(written.sorted())")
    }

    /// Stops a child by its pid with SIGKILL, which no inherited disposition can ignore, and reaps it.
    static func stop(_ process: ChildProcess) {
        guard process.isRunning else { return }
        process.send(SIGKILL)
        process.waitUntilExit()
    }

    /// `grep -rFo`: every needle found under `folder`, as `file:needle` lines.
    static func grep(needles: String, in folder: String) throws -> String {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["grep", "-rFo", "-f", needles, folder]
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
