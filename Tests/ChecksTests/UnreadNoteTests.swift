import Checks
import JSON
import Testing

/// The note a stream's case carries for what Accord's model does not read (issue 36: an unknown
/// line type or field is noted in the report, never a failure).
@Suite("PowerSync: the unread-members note")
struct UnreadNoteTests {
    static func line(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test("the note names each unread pointer once, array indices as *, with the first NDJSON line that held it")
    func note() throws {
        let lines = [
            try Self.line(
                #"{"checkpoint":{"buckets":[{"bucket":"a","checksum":1,"subscriptions":[]},{"bucket":"b","checksum":1,"subscriptions":[]}],"last_op_id":"2","streams":[]}}"#
            ),
            try Self.line(#"{"token_expires_in":30}"#), try Self.line(#"{"sync_progress":{}}"#),
        ]
        #expect(
            UnreadNote.note(for: lines)
                == "not read by Accord's model, skipped as PowerSync's core skips them: /checkpoint/buckets/*/subscriptions (NDJSON line 1); /checkpoint/streams (NDJSON line 1); an unknown line kind, /sync_progress (NDJSON line 3)"
        )
        #expect(UnreadNote.note(for: [try Self.line(#"{"checkpoint_complete":{"last_op_id":"1"}}"#)]) == nil)
    }
}
