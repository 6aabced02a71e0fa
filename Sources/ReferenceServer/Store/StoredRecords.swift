import JSON
import KizunaWire

/// A live row: its latest state and the seq of its last write.
struct StoredRow: Sendable {
    var table: String
    var pk: String
    var seq: Int64
    var data: JSONObject
}

/// A hard delete (or a bucket move-out): the row's key, the seq, the time and the bucket value
/// the row had, which decides who may receive it.
struct StoredTombstone: Sendable {
    var table: String
    var pk: String
    var seq: Int64
    var deletedAt: String
    var bucket: JSONValue?
    var actor: String
}

/// Who last wrote one column, when, and with which origin clock.
struct StoredCell: Sendable {
    var seq: Int64
    var writer: String
    var hlc: String?
}

/// A recorded verdict, replayed for a repeated mutation id: whose mutation it was, the row it
/// named, and what it came to.
struct LedgerEntry: Sendable {
    /// What a recorded mutation came to. A replay renders the row as it is now: an applied one
    /// only when its first answer carried a row (a transform ran), a rejected one always.
    enum Verdict: Sendable {
        case applied(hasRow: Bool)
        case rejected(RejectionReason)
    }

    var user: String
    var verdict: Verdict
    var table: String
    var pk: String
}

/// One pull candidate: a row or a tombstone at a seq.
enum StreamEntry: Sendable {
    case row(StoredRow)
    case tombstone(StoredTombstone)

    var seq: Int64 {
        switch self {
        case .row(let row): row.seq
        case .tombstone(let tombstone): tombstone.seq
        }
    }

    var table: String {
        switch self {
        case .row(let row): row.table
        case .tombstone(let tombstone): tombstone.table
        }
    }
}
