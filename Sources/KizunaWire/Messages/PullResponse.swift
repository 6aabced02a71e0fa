import JSON

/// The body of a pull response.
public struct PullResponse: WireMessage {
    /// The new cursor token.
    public var cursor: CursorToken
    /// True while the transfer continues; false closes the checkpoint.
    public var hasMore: Bool
    /// Delivered rows in (seq, table, pk) order.
    public var rows: [RowChange]
    /// Delivered tombstones in (seq, table, pk) order.
    public var tombstones: [Tombstone]
    /// A signal, which excludes page data.
    public var signal: SignalType?
    /// The conflict journal, omitted when empty.
    public var conflicts: [ConflictEntry]?

    /// Makes a response.
    /// - Parameters:
    ///   - cursor: the cursor.
    ///   - hasMore: whether the transfer continues.
    ///   - rows: the rows.
    ///   - tombstones: the tombstones.
    ///   - signal: the signal.
    ///   - conflicts: the conflict journal.
    public init(
        cursor: CursorToken, hasMore: Bool, rows: [RowChange], tombstones: [Tombstone], signal: SignalType? = nil,
        conflicts: [ConflictEntry]? = nil
    ) {
        self.cursor = cursor
        self.hasMore = hasMore
        self.rows = rows
        self.tombstones = tombstones
        self.signal = signal
        self.conflicts = conflicts
    }

    /// Reads a pull response strictly (pull-response.schema.json).
    /// - Throws: `WireError` naming the protocol code and the offending value's pointer.
    public init(json: JSONValue, at pointer: JSONPointer) throws(WireError) {
        let malformed = WireError.Kind.malformedPullResponse
        var reader = try ObjectReader(json, at: pointer, malformed: malformed)
        self.cursor = try CursorField.read(&reader, "cursor")
        self.hasMore = try reader.bool("has_more")
        var rows: [RowChange] = []
        for (index, element) in try reader.array("rows").enumerated() {
            var row = try ObjectReader(element, at: pointer.appending("rows").appending(index), malformed: malformed)
            rows.append(
                RowChange(
                    table: try row.name("table"), pk: try row.rowKey("pk"), seq: try CursorField.sequence(&row, "seq"),
                    row: try row.columns("row")))
            try row.finish()
        }
        self.rows = rows
        var tombstones: [Tombstone] = []
        for (index, element) in try reader.array("tombstones").enumerated() {
            var tombstone = try ObjectReader(element, at: pointer.appending("tombstones").appending(index), malformed: malformed)
            tombstones.append(
                Tombstone(
                    table: try tombstone.name("table"), pk: try tombstone.rowKey("pk"),
                    seq: try CursorField.sequence(&tombstone, "seq"), deletedAt: try tombstone.string("deleted_at")))
            try tombstone.finish()
        }
        self.tombstones = tombstones
        self.signal = try SignalField.read(try reader.required("signal"), at: pointer.appending("signal"), malformed: malformed)
        if let conflicts = reader.optional("conflicts") {
            guard case .array(let elements) = conflicts else { throw reader.typeError("conflicts", "an array", conflicts) }
            var entries: [ConflictEntry] = []
            for (index, element) in elements.enumerated() {
                var entry = try ObjectReader(element, at: pointer.appending("conflicts").appending(index), malformed: malformed)
                entries.append(
                    ConflictEntry(
                        columnName: try entry.name("column_name"), conflictMode: try entry.string("conflict_mode"),
                        loserValue: try entry.required("loser_value"), pk: try entry.rowKey("pk"), table: try entry.name("table"),
                        winnerMutationID: try entry.uuid("winner_mutation_id"), winnerSeq: try CursorField.sequence(&entry, "winner_seq")))
                try entry.finish()
            }
            self.conflicts = entries
        } else {
            self.conflicts = nil
        }
        try reader.finish()
    }

    /// The number of page entries (rows plus tombstones) that count against the limit.
    public var entryCount: Int { rows.count + tombstones.count }

    /// The wire form, keys in canonical order.
    public var json: JSONValue {
        var object = JSONObject()
        if let conflicts {
            object["conflicts"] = .array(
                conflicts.map {
                    [
                        "column_name": .string($0.columnName), "conflict_mode": .string($0.conflictMode), "loser_value": $0.loserValue,
                        "pk": .string($0.pk), "table": .string($0.table), "winner_mutation_id": .string($0.winnerMutationID),
                        "winner_seq": .string($0.winnerSeq.text),
                    ]
                })
        }
        object["cursor"] = .string(cursor.description)
        object["has_more"] = .bool(hasMore)
        object["rows"] = .array(
            rows.map { ["pk": .string($0.pk), "row": .object($0.row), "seq": .string($0.seq.text), "table": .string($0.table)] })
        object["signal"] = signal.map { ["type": .string($0.rawValue)] } ?? .null
        object["tombstones"] = .array(
            tombstones.map {
                ["deleted_at": .string($0.deletedAt), "pk": .string($0.pk), "seq": .string($0.seq.text), "table": .string($0.table)]
            })
        return .object(object)
    }
}

enum SignalField {
    static func read(_ value: JSONValue, at pointer: JSONPointer, malformed: WireError.Kind) throws(WireError) -> SignalType? {
        if value.isNull { return nil }
        var reader = try ObjectReader(value, at: pointer, malformed: malformed)
        let type = try SignalType.read(
            try reader.required("type"), at: pointer.appending("type"), unknown: .unknownSignal, malformed: malformed, what: "signal")
        try reader.finish()
        return type
    }
}
