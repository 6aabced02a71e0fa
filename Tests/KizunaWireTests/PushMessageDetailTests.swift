import JSON
import KizunaWire
import Testing

@Suite("Push message details")
struct PushMessageDetailTests {
    static func mutation(_ extra: String) throws -> Mutation {
        let text = #"{"columns":{},"mutation_id":"00000000-0000-4000-8000-f10000000001","op":"update","pk":"p","table":"todos"\#(extra)}"#
        return try Mutation(json: try JSONParser.parse(text), at: .root, malformed: .malformedRequest)
    }

    @Test("an empty transforms object survives a round trip")
    func emptyTransformsKept() throws {
        let mutation = try Self.mutation(#","transforms":{}"#)
        #expect(mutation.json["transforms"] == .object(JSONObject()))
        #expect(try Self.mutation("").json["transforms"] == nil)
    }

    @Test("arrayUnion items are scalars")
    func arrayItemsAreScalars() throws {
        #expect(throws: WireError.self) {
            _ = try Self.mutation(#","transforms":{"labels":{"op":"arrayUnion","values":[{"x":1}]}}"#)
        }
        #expect(throws: WireError.self) {
            _ = try Self.mutation(#","transforms":{"labels":{"op":"arrayRemove","values":[null]}}"#)
        }
        _ = try Self.mutation(#","transforms":{"labels":{"op":"arrayUnion","values":["a",1,true]}}"#)
    }

    @Test("keys are compared as bytes, so canonically equivalent keys are distinct")
    func keysAreBytes() throws {
        let value = try JSONParser.parse(#"{"é":1,"e\u0301":2}"#)
        let object = try #require(value.objectValue)
        #expect(object.firstDuplicateKey == nil)
        #expect(object["é"] == 1)
        #expect(object["e\u{301}"] == 2)
    }
}
