import Corpus
import HTTP
import JSON
import Testing

@testable import Lanes

/// The mock's request judge: the headers a PostgREST client sends, and the body compared with
/// the golden request after canonicalization.
@Suite("RequestMatch")
struct RequestMatchTests {
    static let client = "00000000-0000-4000-8000-c10000000001"
    static let match = RequestMatch(expected: .init(jwt: "jwt-1", apikey: "anon", clientID: client))
    static let golden: JSONValue = [
        "buckets": [
            ["params": ["owner_id": "u1"], "table": "notes"], ["params": ["owner_id": "u1"], "table": "todos"],
        ],
        "client_id": .string(client), "cursor": "4", "schema_version": 1,
    ]

    static func request(_ body: String, path: String = "/rest/v1/rpc/pull", drop: String? = nil) -> HTTPRequest {
        var headers: HTTPHeaders = [
            "Authorization": "Bearer jwt-1", "apikey": "anon", "Content-Type": "application/json; charset=utf-8",
            "Accept": "application/json", "Content-Profile": "kizunasync",
        ]
        if let drop { headers.remove(drop) }
        return HTTPRequest(method: "POST", target: path, headers: headers, body: Array(body.utf8))
    }

    static let body =
        #"{"schema_version":1,"cursor":"4","client_id":"00000000-0000-4000-8000-c10000000001","buckets":[{"table":"todos","params":{"owner_id":"u1"}},{"table":"notes","params":{"owner_id":"u1"}}]}"#

    @Test("key order and bucket order do not matter")
    func equalAfterCanonicalization() {
        #expect(Self.match.mismatch(Self.request(Self.body), rpc: .pull, golden: Self.golden) == nil)
    }

    @Test("a different cursor is named by its pointer")
    func differentCursor() throws {
        let body = Self.body.replacingOccurrences(of: #""cursor":"4""#, with: #""cursor":"6~5""#)
        let mismatch = try #require(Self.match.mismatch(Self.request(body), rpc: .pull, golden: Self.golden))
        #expect(mismatch.pointer?.description == "/cursor")
        #expect(mismatch.expected == #""4""#)
        #expect(mismatch.actual == #""6~5""#)
    }

    @Test("each required header is checked", arguments: ["Authorization", "apikey", "Content-Type", "Accept", "Content-Profile"])
    func missingHeader(name: String) throws {
        let mismatch = try #require(Self.match.mismatch(Self.request(Self.body, drop: name), rpc: .pull, golden: Self.golden))
        #expect(mismatch.message == "header \(name) is missing")
    }

    @Test("the wrong RPC path is refused")
    func wrongPath() throws {
        let mismatch = try #require(
            Self.match.mismatch(Self.request(Self.body, path: "/rest/v1/rpc/push"), rpc: .pull, golden: Self.golden))
        #expect(mismatch.message.contains("expected POST /rest/v1/rpc/pull"))
    }

    @Test("a body that is not a pull request is refused even without a golden body")
    func malformedBody() throws {
        let mismatch = try #require(Self.match.mismatch(Self.request(#"{"cursor":"4"}"#), rpc: .pull, golden: nil))
        #expect(mismatch.message.contains("not a well-formed pull request"))
        #expect(Self.match.mismatch(Self.request("not json"), rpc: .pull, golden: nil)?.message.contains("not JSON") == true)
    }

    @Test("a client-stamped hlc is compared by its node, not its time")
    func hlcNode() throws {
        func push(_ hlc: String) -> String {
            #"{"batch":{"atomic":false,"mutations":[{"columns":{"title":"b"},"hlc":""# + hlc
                + #"","mutation_id":"00000000-0000-4000-8000-f10000000011","op":"update","pk":"k1","table":"todos"}]},"client_id":"\#(Self.client)","last_mutation_id":null,"schema_version":1}"#
        }
        let golden = try JSONParser.parse(push("2026-01-01T00:00:02.000Z|0|\(Self.client)"))
        let own = Self.request(push("2031-05-05T10:11:12.345Z|7|\(Self.client)"), path: "/rest/v1/rpc/push")
        #expect(Self.match.mismatch(own, rpc: .push, golden: golden) == nil)
        let other = Self.request(push("2031-05-05T10:11:12.345Z|7|00000000-0000-4000-8000-c10000000002"), path: "/rest/v1/rpc/push")
        let mismatch = try #require(Self.match.mismatch(other, rpc: .push, golden: golden))
        #expect(mismatch.pointer?.description == "/batch/mutations/0/hlc")
    }
}
