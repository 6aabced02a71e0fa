import Corpus
import Foundation
import KizunaWire
import Testing

/// The PowerSync transcript grammar's client-side steps (docs/powersync.md, "Client steps").
@Suite("PowerSync client steps")
struct PowerSyncClientStepTests {
    static func transcript(_ slug: String) throws -> JSONValue {
        try PowerSyncCorpusTests.transcript(try PowerSyncCorpusTests.files(), slug)
    }

    @Test("the client cases read every client step kind with its payload")
    func readsEveryKind() throws {
        let corpus = try PowerSyncCorpus(files: try PowerSyncCorpusTests.files())
        let labels = Set(corpus.cases.flatMap { $0.transcript.steps.map(\.label) })
        #expect(PowerSyncClientAction.kinds.isSubset(of: labels), "every client kind has a case: \(labels)")
        let upload = try #require(
            corpus.cases.first { $0.transcript.caseID.hasPrefix("powersync/008") }?.transcript.steps[10])
        guard case .client(.upload(_, let response, let ownRequest)) = upload.action else {
            Issue.record("step 11 of 008 is an upload: \(upload.label)")
            return
        }
        #expect(response["status"]?.numberValue?.intValue == 200)
        #expect(ownRequest?.response["data"]?["checkpoint_request_id"]?.stringValue == "2")
        let wait = try #require(corpus.cases.first { $0.transcript.caseID.hasPrefix("powersync/011") }?.transcript.steps[3])
        #expect(wait.action == .client(.waitForSync(requestID: "1", timeoutMilliseconds: 50, expect: .disconnected)))
    }

    @Test("a bad client step is an error naming the step and the pointer of the offending value")
    func errorsNameStepAndPointer() throws {
        let original = try Self.transcript("012-upload-and-download-errors-fail-the-wait")
        let cases: [(String, JSONValue, String)] = [
            ("/steps/5/expect", "resolved-ish", "/steps/5/expect"),
            ("/steps/2/write/op", "UPSERT", "/steps/2/write/op"),
            ("/steps/4/response/status", "ok", "/steps/4/response/status"),
            ("/steps/9/status", 200, "/steps/9/status"),
            ("/steps/9/fault", "slow", "/steps/9/fault"),
            ("/steps/6/expect/requests/1", "done", "/steps/6/expect/requests/1"),
            ("/steps/5/timeout_ms", 0, "/steps/5/timeout_ms"),
        ]
        for (path, value, pointer) in cases {
            let error = corpusError { () throws(CorpusError) in
                try PowerSyncTranscript(json: original.setting(path, to: value), file: "t.json")
            }
            #expect(error?.pointer?.description == pointer, "\(path) = \(value)")
            #expect(error?.step == Int(path.split(separator: "/")[1]).map { $0 + 1 }, "\(path)")
        }
        let emptyAssert = corpusError { () throws(CorpusError) in
            try PowerSyncTranscript(json: original.setting("/steps/6/expect", to: JSONValue.object([:])), file: "t.json")
        }
        #expect(emptyAssert?.pointer?.description == "/steps/6/expect")
    }

    @Test("a local write reads PowerSync's CRUD shape and refuses data on a DELETE")
    func localWrite() throws {
        let put = try PowerSyncLocalWrite(
            json: try JSONParser.parse(Array(#"{"op":"PUT","table":"todos","id":"t1","data":{"title":"a"}}"#.utf8)), at: .root)
        #expect(put.op == .put && put.data?["title"] == .string("a"))
        #expect(throws: WireError.self) {
            try PowerSyncLocalWrite(
                json: try JSONParser.parse(Array(#"{"op":"DELETE","table":"todos","id":"t1","data":{}}"#.utf8)), at: .root)
        }
    }
}
