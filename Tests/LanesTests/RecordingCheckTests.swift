import Checks
import Corpus
import Foundation
import JSON
import Lanes
import Reports
import Testing

/// `RecordingCheck`: exchanges folded through the rules, passes kept or only counted.
@Suite("RecordingCheck on recorded exchanges")
struct RecordingCheckTests {
    static let header = RecordingHeader(
        tool: "accord-test", startedAt: "2026-11-30T00:00:00Z", upstream: "http://127.0.0.1:1", redaction: ["policy": "default"])

    /// The rpc steps of a shared transcript as recorded exchanges of one client.
    static func exchanges(from caseID: String, firstNumber: Int = 1) throws -> [RecordedExchange] {
        let loaded = try RunnerFixtures.transcript(caseID)
        var exchanges: [RecordedExchange] = []
        for step in loaded.transcript.steps {
            guard case .rpc(let rpc) = step.action else { continue }
            var exchange = RecordedExchange(
                number: firstNumber + exchanges.count, rpc: rpc.rpc.rawValue, request: rpc.request, response: rpc.response)
            exchange.client = loaded.transcript.context.clientID
            exchange.user = loaded.transcript.context.userID
            exchanges.append(exchange)
        }
        return exchanges
    }

    /// A recording's bytes: the header line, then one line per exchange.
    static func recording(_ exchanges: [RecordedExchange], tail: String = "") -> [UInt8] {
        let lines = [CanonicalJSON.compact(header.json)] + exchanges.map { CanonicalJSON.compact($0.json) }
        return Array((lines.joined(separator: "\n") + "\n" + tail).utf8)
    }

    /// Reads a recording's bytes the way `accord check` does and returns the suite and tally.
    static func check(_ bytes: [UInt8], keepPassing: Bool, file: String = "/tmp/session.jsonl") throws -> (SuiteResult, Tally) {
        var reader = RecordingReader(file: file)
        var check = RecordingCheck(keepPassing: keepPassing)
        try bytes.withUnsafeBufferPointer { buffer throws(CorpusError) in
            try reader.feed(buffer) { item in check.observe(item) }
        }
        try reader.finish { item in check.observe(item) }
        #expect(check.header == header)
        let suite = check.suite(file: file, tornLine: reader.tornLine, properties: [SuiteResult.Property(name: "lane", value: "check")])
        return (suite, suite.tally)
    }

    static let valid = "pull/002-keyset-pagination"

    @Test("passes are counted in the tally whether or not they are kept", arguments: [true, false])
    func passesCounted(_ keepPassing: Bool) throws {
        let exchanges = try Self.exchanges(from: Self.valid)
        #expect(exchanges.count >= 2)
        let (suite, tally) = try Self.check(Self.recording(exchanges), keepPassing: keepPassing)
        #expect(tally.tests == exchanges.count)
        #expect(tally.passed == exchanges.count)
        #expect(tally.failures == 0 && tally.skipped == 0 && tally.errors == 0)
        if keepPassing {
            #expect(suite.cases.map(\.name) == exchanges.map { "exchange \($0.number) \($0.rpc)" })
            #expect(suite.cases.allSatisfy { $0.outcome == .passed && $0.classname == "kizuna.check.recording.session" })
            #expect(suite.tally == tally)
        } else {
            #expect(suite.cases.isEmpty, "only failures are kept: \(suite.cases.map(\.name))")
        }
        #expect(suite.name == "session.jsonl")
        #expect(suite.file == "/tmp/session.jsonl")
        let properties = Dictionary(uniqueKeysWithValues: suite.properties.map { ($0.name, $0.value) })
        #expect(properties["lane"] == "check")
        #expect(properties["recorded_by"] == "accord-test")
        #expect(properties["upstream"] == "http://127.0.0.1:1")
    }

    @Test("a failing exchange is kept whether or not passes are", arguments: [true, false])
    func failuresKept(_ keepPassing: Bool) throws {
        var exchanges = try Self.exchanges(from: "push/002-rls-denied-not-a-wedge")
        let push = try #require(exchanges.lastIndex { $0.rpc == "push" && ($0.response["verdicts"]?.arrayValue?.count ?? 0) > 1 })
        exchanges[push].response = exchanges[push].response.replacing(at: JSONPointer(tokens: ["verdicts", "1"]), with: nil)
        let (suite, tally) = try Self.check(Self.recording(exchanges), keepPassing: keepPassing)
        #expect(tally.tests == exchanges.count)
        #expect(tally.failures == 1)
        #expect(tally.passed == exchanges.count - 1)
        let failed = suite.cases.filter { if case .failed = $0.outcome { true } else { false } }
        let number = exchanges[push].number
        #expect(failed.map(\.name) == ["exchange \(number) push"])
        guard case .failed(let failures)? = failed.first?.outcome else { return }
        for failure in failures {
            #expect(failure.ruleID == "I-5")
            // The header is line 1, so exchange N sits on line N + 1.
            #expect(failure.message.hasPrefix("exchange \(number) push (line \(number + 1)): I-5"), "\(failure.message)")
        }
        #expect(suite.cases.count == (keepPassing ? exchanges.count : 1))
    }

    @Test("a non-2xx exchange and an http exchange are skipped and counted", arguments: [true, false])
    func skippedExchanges(_ keepPassing: Bool) throws {
        var exchanges = try Self.exchanges(from: Self.valid)
        var error = RecordedExchange(
            number: exchanges.count + 1, rpc: "push", request: ["client_id": "x"], response: ["message": "boom"], status: 500)
        error.client = exchanges[0].client
        var other = RecordedExchange(number: exchanges.count + 2, rpc: "http", request: .null, response: .null)
        other.path = "/auth/v1/token"
        exchanges += [error, other]
        let (suite, tally) = try Self.check(Self.recording(exchanges), keepPassing: keepPassing)
        #expect(tally.tests == exchanges.count)
        #expect(tally.skipped == 2)
        #expect(tally.passed == exchanges.count - 2)
        #expect(tally.failures == 0)
        let skipped = suite.cases.compactMap { result -> (String, String)? in
            if case .skipped(let reason) = result.outcome { (result.name, reason) } else { nil }
        }
        if keepPassing {
            #expect(skipped.map(\.0) == ["exchange \(error.number) push", "exchange \(other.number) http"])
            #expect(skipped.first?.1.contains("HTTP 500") == true, "\(skipped)")
            #expect(skipped.last?.1.contains("not a pull or push exchange (POST /auth/v1/token)") == true, "\(skipped)")
        } else {
            #expect(suite.cases.isEmpty, "skips are counted, not kept, when passes are not kept: \(suite.cases.map(\.name))")
        }
    }

    @Test("an empty recording yields one skipped \"no exchanges\" case", arguments: [true, false])
    func emptyRecording(_ keepPassing: Bool) throws {
        let (suite, tally) = try Self.check(Self.recording([]), keepPassing: keepPassing)
        #expect(suite.cases.map(\.name) == ["no exchanges"])
        #expect(suite.cases.first?.outcome == .skipped("the recording holds no exchanges"))
        #expect(tally.tests == 1 && tally.skipped == 1)
    }

    @Test("a torn last line yields a skipped \"torn tail\" case", arguments: [true, false])
    func tornTail(_ keepPassing: Bool) throws {
        let exchanges = try Self.exchanges(from: Self.valid)
        let bytes = Self.recording(exchanges, tail: #"{"at_ms":1,"duration_ms":1,"exchange":99,"http":{"meth"#)
        let (suite, tally) = try Self.check(bytes, keepPassing: keepPassing)
        let torn = try #require(suite.cases.last)
        #expect(torn.name == "torn tail")
        guard case .skipped(let reason) = torn.outcome else {
            Issue.record("torn tail is \(torn.outcome)")
            return
        }
        #expect(reason.contains("torn last line \(exchanges.count + 2)"), "\(reason)")
        #expect(tally.tests == exchanges.count + 1)
        #expect(tally.passed == exchanges.count)
        #expect(tally.skipped == 1)
        #expect(suite.cases.count == (keepPassing ? exchanges.count + 1 : 1))
    }

    @Test("a torn line in an otherwise empty recording yields both skipped cases")
    func tornEmpty() throws {
        let (suite, tally) = try Self.check(Self.recording([], tail: #"{"exch"#), keepPassing: false)
        #expect(suite.cases.map(\.name) == ["no exchanges", "torn tail"])
        #expect(tally.tests == 2 && tally.skipped == 2)
    }
}
