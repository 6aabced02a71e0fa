import JSON
import KizunaWire

/// One pending outbox entry: the wire mutation in issue order, with its atomic group and attempt count.
public struct OutboxEntry: Sendable, Hashable {
    /// The entry's position in issue order (strictly increasing, never reused).
    public var sequence: Int64
    /// The wire mutation the entry pushes, with the origin clock stamped at write time.
    public var mutation: Mutation
    /// The atomic group label; consecutive entries with the same label form one atomic run.
    public var atomicGroup: String?
    /// How many consecutive permanent failures have been charged to the entry.
    public var attempts: Int
}

/// One event the engine raised, with a producer name of spec/engine-events.json.
public struct ClientEvent: Sendable, Hashable {
    /// The producer name, e.g. `LOCAL_CHANGED`.
    public var code: String
    /// The mutation the event concerns, if any.
    public var mutationID: String?
    /// Engine-specific details.
    public var data: JSONObject?
}

/// One conflict-journal entry (a rejection, an atomic abort or a dead letter), oldest first.
public struct ClientJournalEntry: Sendable, Hashable {
    /// The table of the affected row.
    public var table: String
    /// The key of the affected row.
    public var pk: String
    /// A rejection reason, or `DEAD_LETTER`.
    public var reason: String
    /// The mutation concerned, if any.
    public var mutationID: String?
    /// Engine-specific details.
    public var data: JSONObject?
}
