import Corpus
import ServerContract

/// A server change held in an open transaction: its seq is stamped when it is applied, its
/// effect becomes visible when the transaction commits.
struct HeldChange: Sendable {
    var seq: Int64
    var time: String
    var change: FixtureChange
}

/// Another actor's changes (the fixture contract): they bypass bucket visibility and push
/// policy, but stamp seqs, tombstones and column clocks like any write.
struct FixtureApplier {
    let store: Store
    let config: EffectiveConfig

    /// Applies a change now, with a seq stamped earlier when it was held.
    func apply(_ change: FixtureChange, time: String, seq: Int64? = nil) throws(ReferenceServerError) {
        let writer = RowWriter(store: store, noOpWrites: config.noOpWrites)
        switch change {
        case .upsert(let tableName, let pk, let columns, let actor, let hlc):
            let table = try self.table(tableName)
            let current = try store.row(table.name, pk)
            _ = try writer.upsert(
                table: table, pk: pk, columns: columns, previous: current, writer: actor, hlc: hlc, deletedAt: time, seq: seq)
        case .delete(let tableName, let pk, let actor):
            let table = try self.table(tableName)
            guard let current = try store.row(table.name, pk) else {
                throw ReferenceServerError.fixture("delete of \(tableName)/\(pk): no live row")
            }
            try writer.delete(table: table, row: current, writer: actor, deletedAt: time, seq: seq)
        case .reap:
            try store.reap()
        }
    }

    /// Refuses a change that could never apply (an unknown table) before it is held.
    func check(_ change: FixtureChange) throws(ReferenceServerError) {
        switch change {
        case .upsert(let table, _, _, _, _), .delete(let table, _, _): _ = try self.table(table)
        case .reap: break
        }
    }

    private func table(_ name: String) throws(ReferenceServerError) -> SyncedTable {
        guard let table = config.tables[name] else { throw ReferenceServerError.fixture("table \"\(name)\" is not configured") }
        return table
    }
}
