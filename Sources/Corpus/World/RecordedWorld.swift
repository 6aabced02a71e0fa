import JSON

/// What happened on a recorded service outside its recording, as far as the recording shows it:
/// the server configuration, the history before the first exchange, and the changes other
/// actors made between exchanges (`WorldInference` builds it). A replay seeds the history and
/// applies each change before the exchange it precedes, so a recording of a live service (rows
/// from before, other writers during) is answered as it was recorded. Where the recording cannot
/// show the world (a column no answer carried, a hole in a recorded cursor), the exchanges whose
/// answers depend on it are named in `notInferable`, with why.
public struct RecordedWorld: Sendable, Hashable {
    /// The server configuration (`ServerInference`).
    public var server: ServerConfig
    /// Changes before the first exchange: the seed's history.
    public var history: [WorldChange]
    /// Changes applied just before an exchange, by its number, in order.
    public var changes: [Int: [WorldChange]]
    /// Exchanges whose live answer may differ from the recorded one where the recording cannot
    /// show the world, by number, with why: a difference there is not inferable, not diverged.
    public var notInferable: [Int: String]

    /// A world with nothing outside the recording: the configuration alone.
    public init(server: ServerConfig, history: [WorldChange] = [], changes: [Int: [WorldChange]] = [:], notInferable: [Int: String] = [:]) {
        self.server = server
        self.history = history
        self.changes = changes
        self.notInferable = notInferable
    }

    /// The number of changes, history included.
    public var count: Int { history.count + changes.values.reduce(0) { $0 + $1.count } }
}

/// One change on the recorded service that no recorded exchange made: another actor's upsert or
/// delete, or the tombstone reaper, with the evidence for it.
public struct WorldChange: Sendable, Hashable, CustomStringConvertible {
    /// What the change does.
    public enum Operation: Sendable, Hashable {
        /// Writes these columns of the row, creating it when absent.
        case upsert(JSONObject)
        /// Hard-deletes the row, leaving a tombstone.
        case delete
        /// Reaps every tombstone so far.
        case reap
    }

    /// What it does.
    public var operation: Operation
    /// The table; empty for a reap.
    public var table: String
    /// The row key; empty for a reap.
    public var pk: String
    /// Why the recording implies it: "todos/…e009 at seq 12, first shown by exchange 6".
    public var reason: String
    /// For an upsert of an `hlc`-mode table, the origin clock it must carry: above the clock of a
    /// recorded mutation the service refused SUPERSEDED against it.
    public var hlc: String?

    /// The actor every inferred change is applied as: no recorded client, so a later write of
    /// the row by a recorded client is judged as another actor's (DELETE_WINS, RLS_DENIED).
    public static let actor = "00000000-0000-4000-8000-c19999999998"

    /// Makes a change.
    public init(_ operation: Operation, table: String = "", pk: String = "", reason: String, hlc: String? = nil) {
        self.operation = operation
        self.table = table
        self.pk = pk
        self.reason = reason
        self.hlc = hlc
    }

    /// "upsert todos/…0009 (row …)", "delete todos/…0012 (…)", "reap (…)".
    public var description: String {
        let row = "\(table)/…\(pk.suffix(4))"
        switch operation {
        case .upsert: return "upsert \(row) (\(reason))"
        case .delete: return "delete \(row) (\(reason))"
        case .reap: return "reap (\(reason))"
        }
    }
}
