import Corpus
import Foundation
import JSON
import KizunaWire
import PowerSyncWire
import Testing

/// The PowerSync transcript grammar's client-side steps (docs/powersync.md, "Client steps").
@Suite("PowerSync client steps")
struct PowerSyncClientStepTests {
    static func transcript(_ slug: String) throws -> JSONValue {
        try PowerSyncCorpusTests.transcript(try PowerSyncCorpusTests.files(), slug)
    }

    @Test("the client cases read every client step kind with its payload")
    func readsEveryKind() throws {
        let corpus = try PowerSync.Corpus(files: try PowerSyncCorpusTests.files())
        let labels = Set(corpus.cases.flatMap { $0.transcript.steps.map(\.label) })
        #expect(PowerSync.ClientAction.kinds.isSubset(of: labels), "every client kind has a case: \(labels)")
        let upload = try #require(
            corpus.cases.first { $0.transcript.caseID.hasPrefix("powersync/008") }?.transcript.steps[12])
        guard case .client(.upload(_, let response, .checkpointRequest(let own)?)) = upload.action else {
            Issue.record("step 13 of 008 is an upload followed by its own checkpoint request: \(upload.label)")
            return
        }
        #expect(response["status"]?.numberValue?.intValue == 200)
        #expect(own.response["data"]?["checkpoint_request_id"]?.stringValue == "3")
        let wait = try #require(corpus.cases.first { $0.transcript.caseID.hasPrefix("powersync/011") }?.transcript.steps[4])
        #expect(wait.action == .client(.waitForSync(requestID: "2", timeoutMilliseconds: 50, expect: .disconnected)))
    }

    @Test("a bad client step is an error naming the step and the pointer of the offending value")
    func errorsNameStepAndPointer() throws {
        let original = try Self.transcript("012-upload-and-download-errors-fail-the-wait")
        let cases: [(String, JSONValue, String)] = [
            ("/steps/6/expect", "resolved-ish", "/steps/6/expect"),
            ("/steps/3/write/op", "UPSERT", "/steps/3/write/op"),
            ("/steps/5/response/status", "ok", "/steps/5/response/status"),
            ("/steps/11/status", 200, "/steps/11/status"),
            ("/steps/11/fault", "slow", "/steps/11/fault"),
            ("/steps/7/expect/requests/2", "done", "/steps/7/expect/requests/2"),
            ("/steps/6/timeout_ms", 0, "/steps/6/timeout_ms"),
            ("/steps/1/reconcile", "yes", "/steps/1/reconcile"),
            ("/checkpoint_mode", "write-checkpoints", "/checkpoint_mode"),
        ]
        for (path, value, pointer) in cases {
            let error = corpusError { () throws(CorpusError) in
                try PowerSync.Transcript(json: original.setting(path, to: value), file: "t.json")
            }
            #expect(error?.pointer?.description == pointer, "\(path) = \(value)")
            let step = path.hasPrefix("/steps/") ? Int(path.split(separator: "/")[1]).map { $0 + 1 } : nil
            #expect(error?.step == step, "\(path)")
        }
        let emptyAssert = corpusError { () throws(CorpusError) in
            try PowerSync.Transcript(json: original.setting("/steps/7/expect", to: JSONValue.object([:])), file: "t.json")
        }
        #expect(emptyAssert?.pointer?.description == "/steps/7/expect")
    }

    @Test("a local write reads PowerSync's CRUD shape and refuses data on a DELETE")
    func localWrite() throws {
        let put = try PowerSync.LocalWrite(
            json: try JSONParser.parse(Array(#"{"op":"PUT","table":"todos","id":"t1","data":{"title":"a"}}"#.utf8)), at: .root)
        #expect(put.op == .put && put.data?["title"] == .string("a"))
        #expect(throws: WireError.self) {
            try PowerSync.LocalWrite(
                json: try JSONParser.parse(Array(#"{"op":"DELETE","table":"todos","id":"t1","data":{}}"#.utf8)), at: .root)
        }
    }
}
