import Corpus
import Foundation
import JSON
import Testing

/// PowerSync sessions through `accord record` and back through `accord check` and `accord
/// convert`: the three routes recognised, each sync stream kept line by line, secrets redacted, a
/// cut stream keeping its whole lines, and hand-broken recordings failing at their rule, exchange
/// and NDJSON line.
@Suite("accord record and check on PowerSync sessions")
struct PowerSyncRecordTests {
    /// A JWT whose claims are `{"sub":"user-ada"}`, sent as PowerSync's `Authorization: Token`
    /// and inside the stream request's parameters.
    static let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1c2VyLWFkYSJ9.c2lnbmF0dXJlLWNhbmFyeS14eXoxMjM"

    /// A transcript's exchange steps: what goes over the wire, so what a recording holds (its
    /// source-side steps set the service's state and are not exchanges); the app's
    /// request-checkpoint steps are checkpoint-request exchanges on the wire.
    static func steps(_ name: String) throws -> [JSONValue] {
        let path = PowerSyncCheckTests.folder + "/transcripts/\(name).json"
        return try exchangeSteps(of: try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))))
    }

    /// The exchange steps of a parsed transcript, as `steps(_:)` names them.
    static func exchangeSteps(of json: JSONValue) throws -> [JSONValue] {
        let exchanges: Set<String> = ["sync-stream", "checkpoint-request", "write-checkpoint"]
        return try #require(json["steps"]?.arrayValue).compactMap { step in
            guard case .object(var object) = step else { return nil }
            if object["kind"] == "request-checkpoint" { object["kind"] = "checkpoint-request" }
            return exchanges.contains(object["kind"]?.stringValue ?? "") ? .object(object) : nil
        }
    }

    /// The upstream's answers and the client's calls that replay a transcript's steps.
    static func exchanges(of steps: [JSONValue], crlf: Bool = false) -> ([PowerSyncUpstream.Answer], [PowerSyncUpstream.Call]) {
        var answers: [PowerSyncUpstream.Answer] = []
        var calls: [PowerSyncUpstream.Call] = []
        let token = "Authorization: Token \(jwt)"
        for step in steps {
            let request = step["request"] ?? [:]
            switch step["kind"]?.stringValue {
            case "sync-stream":
                let lines = (step["lines"]?.arrayValue ?? []).map { CanonicalJSON.compact($0) }
                answers.append(.init(path: "/sync/stream", lines: lines, crlf: crlf))
                let body = request.replacing(at: JSONPointer(tokens: ["parameters"]), with: ["session": .string(jwt)])
                calls.append(.init(method: "POST", target: "/sync/stream", body: body, headers: [token]))
            case "write-checkpoint":
                answers.append(.init(path: "/write-checkpoint2.json", body: step["response"]))
                let client = request["client_id"]?.stringValue.map { "?client_id=\($0)" } ?? ""
                calls.append(.init(method: "GET", target: "/write-checkpoint2.json" + client, headers: [token]))
            default:
                answers.append(.init(path: "/sync/checkpoint-request", body: step["response"]))
                calls.append(.init(method: "POST", target: "/sync/checkpoint-request", body: request, headers: [token]))
            }
        }
        return (answers, calls)
    }

    static func exchanges(in recording: String) throws -> [RecordedExchange] {
        try recording.split(separator: "\n").dropFirst().enumerated().map { index, line in
            try RecordedExchange(json: try JSONParser.parse(String(line)), line: index + 2)
        }
    }

    @Test("a session through accord record keeps every stream line by line, redacts the JWT, and passes accord check and convert")
    func recordedSessionPasses() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        // 007's requests come from another device of the user: checkpoint requests and write
        // checkpoints of one user and client share one counter, so 006's write checkpoint 8 and
        // 007's earlier session at 42 cannot both be this one client's.
        let tablet = try Self.steps("007-checkpoint-request-ids-keep-the-greatest").map { step in
            step.replacing(at: try ptr("/request/client_id"), with: "client-ada-tablet")
        }
        let steps = try Self.steps("006-write-checkpoints-move-forward") + tablet
        let (answers, calls) = Self.exchanges(of: steps, crlf: true)
        let session = try await PowerSyncUpstream.run(answers: answers, calls: calls, folder: folder)
        #expect(session.status == 0)
        #expect(!session.recording.contains(Self.jwt) && !session.recording.contains("c2lnbmF0dXJl"), "the JWT is redacted")
        #expect(session.recording.contains("Token <redacted:jwt:1>"), "\(session.recording.prefix(2000))")
        let recorded = try Self.exchanges(in: session.recording)
        #expect(recorded.map(\.rpc) == steps.compactMap { $0["kind"]?.stringValue })
        for (step, exchange) in zip(steps, recorded) where exchange.rpc == "sync-stream" {
            #expect(exchange.response == step["lines"], "exchange \(exchange.number) holds the stream's lines as sent")
            #expect(exchange.request["parameters"]?["session"] == .string("<redacted:jwt:1>"))
        }
        #expect(recorded.first?.path == "/write-checkpoint2.json?client_id=client-ada-phone" && recorded.first?.method == "GET")
        // The client saw the stream as the upstream sent it, CRLF and all.
        #expect(session.answers[1].hasSuffix("}\r\n") && session.answers[1].split(separator: "\r\n").count == 6)

        let recording = folder.appendingPathComponent("session.jsonl")
        let report = folder.appendingPathComponent("report.json")
        let check = try await AccordBinary.run(["check", recording.path, "--json", report.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("1 case (1 passed, 0 failed, 0 skipped), 11 steps: 11 passed, 0 failed"), "\(check.stdout)")
        let json = try JSONParser.parse([UInt8](try Data(contentsOf: report)))
        #expect(json["suites"]?.arrayValue?.first?["properties"]?["profile"]?.stringValue == "powersync")

        let transcript = folder.appendingPathComponent("recorded-session.json")
        let convert = try await AccordBinary.run(["convert", recording.path, transcript.path])
        #expect(convert.status == 0, "\(convert.stdout)\(convert.stderr)")
        let converted = try JSONParser.parse([UInt8](try Data(contentsOf: transcript)))
        #expect(converted["case"]?.stringValue == "powersync/001-recording-recorded-session")
        // 11 exchanges, and 4 source steps inferred (the session made no fixture call): 3 commits
        // from the streams, and an id an earlier session left (the first request was answered above what it sent).
        #expect(converted["steps"]?.arrayValue?.count == 15)
        #expect(
            convert.stderr.contains(
                "no fixture calls: the source side is inferred from the streams, 3 commit(s), 2 op id(s) the user never saw filled in accord-unseen-ops, 1 checkpoint request id(s) an earlier session left"
            ), "\(convert.stderr)")
        #expect(converted["user_id"] == "user-ada" && converted["client_id"] == "client-ada-phone", "the Token JWT's sub, unverified")
        let again = try await AccordBinary.run(["check", transcript.path])
        #expect(again.status == 0, "\(again.stdout)\(again.stderr)")
        #expect(again.stdout.contains("15 steps: 11 passed, 0 failed, 4 skipped"), "\(again.stdout)")
    }

    @Test("a stream cut mid-line keeps its whole lines, marks the cut, and the whole lines are still checked")
    func cutStreamKeepsWholeLines() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let steps = try Self.steps("001-initial-sync-completes")
        var (answers, calls) = Self.exchanges(of: steps)
        let lines = try #require(answers[0].lines)
        answers[0].lines = Array(lines.prefix(3))
        answers[0].cut = String(lines[3].prefix(20))
        let session = try await PowerSyncUpstream.run(answers: answers, calls: calls, folder: folder)
        calls.removeAll()
        let exchange = try #require(try Self.exchanges(in: session.recording).first)
        #expect(exchange.response.arrayValue?.count == 3)
        #expect(exchange.response == .array(Array((steps[0]["lines"]?.arrayValue ?? []).prefix(3))))
        #expect(
            exchange.responseHeaders[":accord-ndjson-cut"]?.stringValue
                == "cut mid-line: 3 whole lines kept, the 20 bytes of NDJSON line 4 dropped",
            "\(exchange.responseHeaders)")
        #expect(exchange.responseHeaders[":accord-error"] != nil)
        let recording = folder.appendingPathComponent("session.jsonl")
        let check = try await AccordBinary.run(["check", recording.path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("1 steps: 1 passed") || check.stdout.contains("1 step: 1 passed"), "\(check.stdout)")
    }

    @Test("a stream still open when accord record is stopped (SIGINT) is recorded with its whole lines and checked")
    func openStreamAtShutdown() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let steps = try Self.steps("001-initial-sync-completes")
        var (answers, calls) = Self.exchanges(of: steps)
        answers[0].holdOpen = true
        let golden = steps[0]["lines"]?.arrayValue ?? []
        calls[0].leaveOpenAfterLines = golden.count + 2
        let session = try await PowerSyncUpstream.run(answers: answers, calls: calls, folder: folder)
        #expect(session.status == 0)
        let exchange = try #require(try Self.exchanges(in: session.recording).first)
        let lines = try #require(exchange.response.arrayValue)
        #expect(lines.count >= golden.count + 2, "the golden lines and the keep-alives that followed")
        #expect(Array(lines.prefix(golden.count)) == golden)
        #expect(lines.dropFirst(golden.count).allSatisfy { $0 == ["token_expires_in": 3600] })
        let check = try await AccordBinary.run(["check", folder.appendingPathComponent("session.jsonl").path])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        #expect(check.stdout.contains("1 step: 1 passed"), "\(check.stdout)")
    }

    /// A recording of a transcript's steps, one exchange a step, as `accord record` writes it.
    static func recording(of steps: [JSONValue]) -> String {
        let header = RecordingHeader(
            tool: "accord-test", startedAt: "2026-12-02T00:00:00Z", upstream: "http://127.0.0.1:1", redaction: ["policy": "default"])
        var lines = [CanonicalJSON.compact(header.json)]
        for (index, step) in steps.enumerated() {
            let kind = step["kind"]?.stringValue ?? ""
            let request = step["request"] ?? [:]
            var exchange = RecordedExchange(
                number: index + 1, rpc: kind, request: kind == "write-checkpoint" ? .null : request,
                response: step["lines"] ?? step["response"] ?? .null)
            if kind == "write-checkpoint", let client = request["client_id"]?.stringValue { exchange.path += "?client_id=" + client }
            exchange.client = "client-ada-phone"
            lines.append(CanonicalJSON.compact(exchange.json))
        }
        return lines.joined(separator: "\n") + "\n"
    }

    @Test("a hand-broken recording fails its rule at its exchange, NDJSON line and pointer", arguments: PowerSyncCheckTests.breaks)
    func brokenRecordingFails(_ broken: StreamBreak) async throws {
        let path = PowerSyncCheckTests.folder + "/transcripts/\(broken.file).json"
        var json = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        json = json.replacing(at: try ptr(broken.edit.0), with: broken.edit.1)
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("broken.jsonl")
        // The recording holds the exchange steps only; the break's step is numbered among them.
        let exchanges = try Self.exchangeSteps(of: json)
        let number = try #require(exchanges.firstIndex { $0["n"]?.numberValue?.intValue == broken.step }) + 1
        try Data(Self.recording(of: exchanges).utf8).write(to: file)
        let report = folder.appendingPathComponent("report.json")
        let result = try await AccordBinary.run(["check", file.path, "--json", report.path])
        #expect(result.status == 1, "exit 1 on a rule failure: \(result.stdout)\(result.stderr)")
        let failures = try CheckBreakTests.failures(in: report)
        #expect(!failures.isEmpty, "the break is caught")
        let at = "exchange \(number) \(broken.label)" + (broken.line.map { " NDJSON line \($0)" } ?? "") + " (line \(number + 1))"
        for failure in failures {
            #expect(failure.rule == broken.rule, "only \(broken.rule) fails: \(failure.message)")
            #expect(failure.caseName == "exchange \(number) \(broken.label)", "the failing case is the exchange: \(failure.caseName)")
            #expect(failure.message.hasPrefix("\(at): \(broken.rule) "), "names the exchange and line: \(failure.message)")
            #expect(failure.message.hasSuffix("(at \(broken.pointer))"), "names the pointer \(broken.pointer): \(failure.message)")
        }
    }
}
