import Foundation
import JSON
import KizunaWire
import Testing

@Suite("wire messages through Codable")
struct WireCodableTests {
    @Test("JSONDecoder decodes a push response strictly and JSONEncoder writes its wire form")
    func pushResponseRoundTrip() throws {
        let body =
            #"{"verdicts":[{"mutation_id":"00000000-0000-4000-8000-f10000000001","verdict":"applied"},{"mutation_id":"00000000-0000-4000-8000-f10000000002","reason":"RLS_DENIED","server_row":null,"verdict":"rejected"}]}"#
        let decoded = try JSONDecoder().decode(PushResponse.self, from: Data(body.utf8))
        guard case .verdicts(let verdicts) = decoded else {
            Issue.record("expected verdicts, got \(decoded)")
            return
        }
        #expect(verdicts.count == 2)
        let encoded = try JSONEncoder().encode(decoded)
        #expect(CanonicalJSON.compact(try JSONParser.parse([UInt8](encoded))) == CanonicalJSON.compact(decoded.json))
    }

    @Test("an unknown reason through JSONDecoder is the typed UNKNOWN_VERDICT_REASON error")
    func unknownReasonThrowsTyped() throws {
        let body =
            #"{"verdicts":[{"mutation_id":"00000000-0000-4000-8000-f10000000001","reason":"NOPE","server_row":null,"verdict":"rejected"}]}"#
        #expect {
            _ = try JSONDecoder().decode(PushResponse.self, from: Data(body.utf8))
        } throws: { error in
            (error as? WireError)?.protocolCode == "UNKNOWN_VERDICT_REASON"
        }
    }

    @Test("a pull request keeps its cursor text through Codable")
    func pullRequestCursor() throws {
        let body = #"{"buckets":[],"cursor":"4:6~5","schema_version":1}"#
        let decoded = try JSONDecoder().decode(PullRequest.self, from: Data(body.utf8))
        #expect(decoded.cursor.description == "4:6~5")
        let again = try JSONDecoder().decode(PullRequest.self, from: try JSONEncoder().encode(decoded))
        #expect(again == decoded)
    }
}
