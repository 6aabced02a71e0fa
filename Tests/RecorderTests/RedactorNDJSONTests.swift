import Capture
import JSON
import PowerSyncWire
import Testing

@Suite("NDJSON answers as recorded")
struct RedactorNDJSONTests {
    static let jwt = "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ1In0.AbCdEfGhIjKlMnOp"

    private func recorded(_ body: String, complete: Bool, encoding: String? = nil) throws -> (JSONValue, NDJSONLines.Cut?) {
        let (encoded, cut) = Redactor(policy: RedactionPolicy()).encodedNDJSON(
            Array(body.utf8), contentEncoding: encoding, complete: complete)
        return (try JSONParser.parse(encoded), cut)
    }

    @Test("each line becomes one value of an array, CRLF or LF, number literals as sent")
    func linesAsArray() throws {
        let (value, cut) = try recorded("{\"token_expires_in\":60}\r\n{\"checkpoint_complete\":{\"last_op_id\":\"4\"}}\r\n", complete: true)
        #expect(cut == nil)
        #expect(value == [["token_expires_in": .number(JSONNumber(literal: "60"))], ["checkpoint_complete": ["last_op_id": "4"]]])
        let (floats, _) = try recorded("{\"checksum\":-1.0}\n", complete: true)
        #expect(floats.arrayValue?.first?["checksum"]?.numberValue?.literal == "-1.0")
    }

    @Test("token_expires_in is a protocol member, not a secret; secret names and JWTs in lines are still replaced")
    func redaction() throws {
        let policy = RedactionPolicy()
        #expect(!policy.isSecret("token_expires_in") && policy.isSecret("access_token") && policy.isSecret("token"))
        #expect(RedactionPolicy(redact: ["token_expires_in"]).isSecret("token_expires_in"), "--redact still wins")
        let (value, _) = try recorded(
            "{\"token_expires_in\":60}\n{\"data\":{\"token\":\"opaque\",\"note\":\"\(Self.jwt)\"}}\nnot json \(Self.jwt)\n", complete: true)
        #expect(
            value == [
                ["token_expires_in": 60], ["data": ["token": "<redacted:secret:1>", "note": "<redacted:jwt:1>"]],
                "not json <redacted:jwt:1>",
            ])
    }

    @Test("a cut answer keeps its whole lines only, and says which line it dropped")
    func cut() throws {
        let (value, cut) = try recorded("{\"a\":1}\n{\"b\":2}\n{\"c\":\"\(Self.jwt.prefix(30))", complete: false)
        #expect(value == [["a": 1], ["b": 2]])
        #expect(cut == NDJSONLines.Cut(droppedBytes: 36, line: 3))
        #expect(Redactor.ndjsonCutNote(try #require(cut)) == "cut mid-line: 2 whole lines kept, the 36 bytes of NDJSON line 3 dropped")
    }

    @Test("an encoded answer is described, not split")
    func encoded() throws {
        let (value, cut) = try recorded("\u{1f}\u{8b}", complete: true, encoding: "gzip")
        #expect(value == "<3 bytes, content-encoding gzip, not recorded>" && cut == nil)
    }
}
