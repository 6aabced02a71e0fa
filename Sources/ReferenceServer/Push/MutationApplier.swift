import JSON
import KizunaWire

/// What one mutation came to.
enum MutationOutcome: Sendable {
    /// Applied; `serverRow` is rendered when a transform ran.
    case applied(serverRow: JSONObject?)
    /// Refused with no effect; `serverRow` is the row to revert to (nil: delete locally).
    case rejected(RejectionReason, serverRow: JSONObject?)
}

/// Applies one mutation inside the caller's transaction: visibility, column privileges,
/// preconditions, conflict resolution (arrival or hlc), transforms, types, then the write.
struct MutationApplier {
    /// The push this mutation belongs to: its store, logical clock and seeded faults.
    let push: PushHandler
    let caller: Caller
    /// The first seq this push could stamp: a tombstone at or above it is this push's own.
    let pushStart: Int64

    var store: Store { push.store }
    /// The server's current time (the logical clock).
    var now: String { push.now }
    var faults: Set<ServerFault> { push.faults }

    func apply(_ mutation: Mutation, in table: SyncedTable) throws(ReferenceServerError) -> MutationOutcome {
        let sees = { (data: JSONObject) in faults.contains(.rlsNotEnforced) || caller.canSee(data, in: table) }
        let current = try store.row(table.name, mutation.pk)
        guard let keyParts = RowKey.components(of: mutation.pk, keyColumns: table.schema.keyColumns) else {
            return .rejected(.constraint, serverRow: caller.render(current, in: table))
        }
        switch mutation.op {
        case .insert:
            if let current, !sees(current.data) { return .rejected(.rlsDenied, serverRow: nil) }
            // A pk whose last change is a hard delete stays deleted until its tombstone is reaped:
            // an insert is a later write like any other (PROTOCOL-NOTES §2; upstream's SQL pack
            // decides it before the op, 0001_kizuna_init.sql at 05bc51f1). `accord explore`
            // found the reference re-creating it where the pack answers RLS_DENIED (issue 39).
            if current == nil, try store.latestTombstone(table.name, mutation.pk) != nil { return try absent(mutation, in: table) }
            return try write(mutation, in: table, current: current, keyParts: keyParts)
        case .update:
            guard let current else { return try absent(mutation, in: table) }
            guard sees(current.data) else { return .rejected(.rlsDenied, serverRow: nil) }
            return try write(mutation, in: table, current: current, keyParts: keyParts)
        case .delete:
            guard let current else { return try absent(mutation, in: table) }
            guard sees(current.data) else { return .rejected(.rlsDenied, serverRow: nil) }
            if table.softDeleteColumn != nil {
                // A soft-delete table grants no DELETE: the row stays, the client restores it.
                return .rejected(.rlsDenied, serverRow: caller.render(current, in: table))
            }
            if let failed = preconditionFails(mutation, current: current, in: table) { return failed }
            try RowWriter(store: store).delete(table: table, row: current, writer: caller.client, deletedAt: now)
            return .applied(serverRow: nil)
        }
    }

    /// A write to a row with no live record: DELETE_WINS to a caller whose user holds a grant for
    /// the bucket value the row was removed from, or whose same push deleted it; RLS_DENIED to
    /// anyone else, since absent and hidden look the same (D-tombstone-delivery, kizunasync/
    /// kizunasync packages/protocol/decisions at 05bc51f1: "A delete that the same push applied
    /// earlier answers DELETE_WINS without a grant, because the caller made it").
    private func absent(_ mutation: Mutation, in table: SyncedTable) throws(ReferenceServerError) -> MutationOutcome {
        guard let tombstone = try store.latestTombstone(table.name, mutation.pk) else { return .rejected(.rlsDenied, serverRow: nil) }
        if tombstone.actor == caller.client && tombstone.seq >= pushStart { return .rejected(.deleteWins, serverRow: nil) }
        guard try store.hasGrant(user: caller.user, table: table.name, bucket: tombstone.bucket ?? .null) else {
            return .rejected(.rlsDenied, serverRow: nil)
        }
        return .rejected(.deleteWins, serverRow: nil)
    }

    private func preconditionFails(_ mutation: Mutation, current: StoredRow?, in table: SyncedTable) -> MutationOutcome? {
        guard let precondition = mutation.precondition, !faults.contains(.preconditionIgnored) else { return nil }
        for member in precondition.members where (current?.data[member.key] ?? .null) != member.value {
            return .rejected(.precondition, serverRow: caller.render(current, in: table))
        }
        return nil
    }

    private func write(_ mutation: Mutation, in table: SyncedTable, current: StoredRow?, keyParts: [String])
        throws(ReferenceServerError) -> MutationOutcome
    {
        let rendered = caller.render(current, in: table)
        let written = mutation.columns.keys + mutation.transforms.map(\.column)
        for column in written {
            let isKey = table.schema.keyColumns.contains(column)
            if !table.hasColumn(column) || table.schema.readOnlyColumns.contains(column) || (isKey && mutation.op == .update) {
                return .rejected(.columnDenied, serverRow: rendered)
            }
        }
        if let failed = preconditionFails(mutation, current: current, in: table) { return failed }
        let lateTypeCheck = faults.contains(.rejectedLeavesEffect)
        if !lateTypeCheck, let failed = typeCheck(mutation, in: table, rendered: rendered) { return failed }
        if mutation.op == .insert {
            for (index, key) in table.schema.keyColumns.enumerated() {
                if let value = mutation.columns[key], RowKey.componentText(value) != keyParts[index] {
                    return .rejected(.constraint, serverRow: rendered)
                }
            }
        }
        // Conflict resolution: arrival order assigns every masked column; hlc keeps the winners.
        var assigned = mutation.columns
        if !table.hlcMode, faults.contains(.arrivalOrderReversed), let current {
            assigned = JSONObject(mutation.columns.members.filter { current.data[$0.key] == nil })
        }
        var clock: OriginClock?
        if table.hlcMode && !faults.contains(.hlcIgnored) {
            // The push refused a write without a clock; a clock that does not parse is the grammar's.
            let incoming = (mutation.hlc.flatMap(OriginClock.init) ?? OriginClock(physical: now, logical: 0, node: caller.client))
                .clamped(to: now)
            clock = incoming
            if let current {
                let cells = try store.cells(table.name, current.pk)
                assigned = JSONObject(
                    mutation.columns.members.filter { member in
                        guard let existing = cells[member.key]?.hlc.flatMap(OriginClock.init) else { return true }
                        return existing < incoming
                    })
                if assigned.count == 0 && mutation.columns.count > 0 && mutation.transforms.isEmpty {
                    return .rejected(.superseded, serverRow: rendered)
                }
            }
        }
        var changes = assigned
        for (column, transform) in mutation.transforms {
            guard let value = TransformApplier.apply(transform, to: current?.data[column], type: table.type(of: column)) else {
                return .rejected(.constraint, serverRow: rendered)
            }
            changes[column] = value
        }
        var merged = current?.data ?? JSONObject()
        for member in changes.members { merged[member.key] = member.value }
        // An insert's own row must pass the insert policy, even over a row that exists: a SQL
        // upsert checks the tuple it proposes (upstream's pack, `_apply_upsert`, and its reference
        // oracle's WITH-CHECK analog; `accord explore` found the reference checking only the
        // merged row, issue 39).
        let proposed = mutation.op == .insert ? mutation.columns : merged
        guard faults.contains(.rlsNotEnforced) || (caller.canSee(merged, in: table) && caller.canSee(proposed, in: table)) else {
            return .rejected(.rlsDenied, serverRow: rendered)
        }
        // NOT NULL: an insert must leave every such column set; an update breaks it only by writing
        // null, so a row a fixture created without the column stays editable.
        let notNullFails = table.schema.notNullColumns.contains { column in
            (mutation.op == .insert || changes[column] != nil) && (merged[column] ?? .null).isNull
        }
        if notNullFails && !lateTypeCheck { return .rejected(.constraint, serverRow: rendered) }
        let previousCells = table.journal && current != nil ? try store.cells(table.name, mutation.pk) : [:]
        let row = try RowWriter(store: store, noOpWrites: push.config.noOpWrites).upsert(
            table: table, pk: mutation.pk, columns: changes, previous: current, writer: caller.client, hlc: clock?.text, deletedAt: now)
        if table.journal, let current {
            try journal(mutation, table: table, previous: current, cells: previousCells, assigned: assigned, row: row)
        }
        if lateTypeCheck && notNullFails { return .rejected(.constraint, serverRow: rendered) }
        if lateTypeCheck, let failed = typeCheck(mutation, in: table, rendered: rendered) { return failed }
        return .applied(serverRow: mutation.transforms.isEmpty ? nil : caller.render(row, in: table))
    }

    /// CONSTRAINT when a written value does not fit its column's type.
    private func typeCheck(_ mutation: Mutation, in table: SyncedTable, rendered: JSONObject?) -> MutationOutcome? {
        for member in mutation.columns.members {
            if let type = table.type(of: member.key), !type.accepts(member.value) { return .rejected(.constraint, serverRow: rendered) }
        }
        return nil
    }

    /// Records each assigned column whose value, last written by another writer, was overwritten.
    private func journal(
        _ mutation: Mutation, table: SyncedTable, previous: StoredRow, cells: [String: StoredCell], assigned: JSONObject,
        row: StoredRow
    ) throws(ReferenceServerError) {
        for member in assigned.members {
            guard let loser = previous.data[member.key], loser != member.value else { continue }
            guard let writer = cells[member.key]?.writer, writer != caller.client else { continue }
            try store.add(
                StoredConflict(
                    table: table.name, pk: previous.pk, column: member.key, mode: table.conflictModeName, loser: loser,
                    winnerMutation: mutation.mutationID, winnerSeq: row.seq, bucket: table.bucketColumn.flatMap { row.data[$0] }))
        }
    }
}
