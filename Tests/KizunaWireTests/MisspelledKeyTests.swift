import JSON
import KizunaWire
import Testing

/// A misspelled key is the likelier mistake than a missing one (issue 37: `mutaton_id` was
/// reported as `missing required key "mutation_id"`).
@Suite("a misspelled key is named as such")
struct MisspelledKeyTests {
    static func read(_ text: String, key: String) -> WireError? {
        do {
            var reader = try ObjectReader(try JSONParser.parse(Array(text.utf8)), at: .root, malformed: .malformedRequest)
            _ = try reader.required(key)
            return nil
        } catch let error as WireError {
            return error
        } catch {
            return nil
        }
    }

    @Test("an unread key an edit or two from the required one is named at its pointer; a far one leaves the missing key")
    func misspelled() {
        let typo = Self.read(#"{"mutaton_id":"m1","op":"insert"}"#, key: "mutation_id")
        #expect(typo?.pointer.description == "/mutaton_id")
        #expect(typo?.detail == #"unknown key "mutaton_id": did you mean "mutation_id", which is required?"#)
        let swapped = Self.read(#"{"mutaiton_id":"m1"}"#, key: "mutation_id")
        #expect(swapped?.pointer.description == "/mutaiton_id")
        let far = Self.read(#"{"client":"c"}"#, key: "mutation_id")
        #expect(far?.pointer.description == "" && far?.detail == #"missing required key "mutation_id""#)
        // A short key needs a closer match: "op" is not a misspelling of "id".
        let short = Self.read(#"{"op":"x"}"#, key: "id")
        #expect(short?.detail == #"missing required key "id""#)
        #expect(Self.read(#"{"mutation_id":"m1"}"#, key: "mutation_id") == nil)
    }
}
