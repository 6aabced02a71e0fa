import JSON
import PowerSyncWire
import Testing

/// What of a line Accord's model does not read: PowerSync's core skips unknown line kinds and
/// members (powersync-sqlite-core 60ebb700db5ac05bdc6a9fba29ab35dde0fd3907, crates/core/src/sync/line.rs,
/// `UnknownSyncLine`, no `deny_unknown_fields`); the service sends members Accord does not read
/// (`streams`, `subscriptions`: powersync-service 332d649554ce0ffa6151f57bce920056f2c0b5ea,
/// modules/module-mongodb-storage/test/src/__snapshots__/storage_sync.test.ts.snap).
@Suite("PowerSync lines: what the model does not read")
struct UnreadMembersTests {
    static func line(_ text: String) throws -> JSONValue { try JSONParser.parse(Array(text.utf8)) }

    @Test("an unknown kind is named whole; members no kind defines are named by pointer; a line the model writes has none")
    func unread() throws {
        #expect(SyncLine.unread(in: try Self.line(#"{"sync_progress":{"done":1}}"#)).map(\.description) == ["/sync_progress"])
        let checkpoint = try Self.line(
            #"{"checkpoint":{"buckets":[{"bucket":"a","checksum":-1,"count":1,"priority":0,"subscriptions":[{"sub":0}]}],"last_op_id":"2","streams":[],"write_checkpoint":"3"}}"#
        )
        #expect(SyncLine.unread(in: checkpoint).map(\.description) == ["/checkpoint/buckets/0/subscriptions", "/checkpoint/streams"])
        let data = try Self.line(
            #"{"data":{"after":"0","bucket":"a","data":[{"checksum":1,"data":"{}","object_id":"x","object_type":"t","op":"PUT","op_id":"1","subkey":"k","ttl":5}],"has_more":false,"next_after":"1"}}"#
        )
        #expect(SyncLine.unread(in: data).map(\.description) == ["/data/data/0/ttl"])
        // Every member the model decodes and writes back is one it reads.
        for line in [checkpoint, data] {
            let decoded = try SyncLine(json: line)
            #expect(SyncLine.unread(in: decoded.json).isEmpty, "\(decoded.json)")
        }
        for text in [
            #"{"checkpoint_diff":{"last_op_id":"3","removed_buckets":["b"],"updated_buckets":[{"bucket":"a","checksum":1,"count":1}],"write_checkpoint":"2"}}"#,
            #"{"partial_checkpoint_complete":{"last_op_id":"3","priority":1}}"#, #"{"checkpoint_complete":{"last_op_id":"3"}}"#,
            #"{"token_expires_in":30}"#,
        ] {
            #expect(SyncLine.unread(in: try Self.line(text)).isEmpty, "\(text)")
        }
        #expect(SyncLine.unread(in: try Self.line(#"{"a":1,"b":2}"#)).isEmpty, "not one key: a shape error, not a note")
    }
}
