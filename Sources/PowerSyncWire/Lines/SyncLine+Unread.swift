import JSON

extension SyncLine {
    /// What Accord's model reads of a line kind's body: a member it reads, and the shape inside.
    indirect enum Vocabulary: Sendable {
        /// A value read whole.
        case value
        /// An object of which these members are read.
        case object([String: Vocabulary])
        /// An array whose elements have this shape.
        case array(Vocabulary)
    }

    private static let bucket = Vocabulary.object(["bucket": .value, "checksum": .value, "count": .value, "priority": .value])
    private static let op = Vocabulary.object([
        "op_id": .value, "op": .value, "object_type": .value, "object_id": .value, "checksum": .value, "data": .value,
        "subkey": .value,
    ])
    private static let vocabulary: [String: Vocabulary] = [
        "checkpoint": .object(["last_op_id": .value, "write_checkpoint": .value, "buckets": .array(bucket)]),
        "checkpoint_diff": .object([
            "last_op_id": .value, "write_checkpoint": .value, "updated_buckets": .array(bucket), "removed_buckets": .value,
        ]),
        "data": .object(["bucket": .value, "after": .value, "next_after": .value, "has_more": .value, "data": .array(op)]),
        "partial_checkpoint_complete": .object(["last_op_id": .value, "priority": .value]),
        "checkpoint_complete": .object(["last_op_id": .value]),
        "token_expires_in": .value,
    ]

    /// What of a line Accord's model does not read, for the report to note: the line's kind when
    /// no kind of this version names it, else the pointers of the members its kind does not
    /// define (a newer service's `streams`, `subscriptions`, …). PowerSync's core skips both
    /// (powersync-sqlite-core 60ebb70, crates/core/src/sync/line.rs: `UnknownSyncLine`, no
    /// `deny_unknown_fields`), so they are never a failure. Empty for a line of one key whose
    /// body is all read, and for anything that is not one object of one key (a shape error).
    /// - Parameter json: the line.
    /// - Returns: an unknown kind's pointer (`/kind`) alone, or the unread members' pointers in order.
    public static func unread(in json: JSONValue) -> [JSONPointer] {
        guard case .object(let object) = json, object.count == 1, let member = object.members.first else { return [] }
        let at = JSONPointer(tokens: [member.key])
        guard let shape = vocabulary[member.key] else { return [at] }
        var found: [JSONPointer] = []
        collect(member.value, shape, at: at, into: &found)
        return found
    }

    private static func collect(_ value: JSONValue, _ shape: Vocabulary, at pointer: JSONPointer, into found: inout [JSONPointer]) {
        switch (shape, value) {
        case (.object(let members), .object(let object)):
            for member in object.members {
                guard let inner = members[member.key] else {
                    found.append(pointer.appending(member.key))
                    continue
                }
                collect(member.value, inner, at: pointer.appending(member.key), into: &found)
            }
        case (.array(let element), .array(let elements)):
            for (index, item) in elements.enumerated() { collect(item, element, at: pointer.appending(index), into: &found) }
        default: return
        }
    }
}
