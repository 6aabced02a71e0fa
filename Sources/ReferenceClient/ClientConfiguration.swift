import Corpus

/// Who the client is and what it syncs: identities, schema version, tables and the pull page size.
public struct ClientConfiguration: Sendable, Hashable {
    /// The client identity (a uuid), pushed and pulled as `client_id`.
    public var clientID: String
    /// The user identity (a uuid), the bucket value of every table.
    public var userID: String
    /// The schema version sent on every RPC.
    public var schemaVersion: Int
    /// The synced tables, in request order.
    public var tables: [TableConfig]
    /// The pull page size sent as `limit`; nil sends none.
    public var pullLimit: Int?
    /// The cursor a new store starts at.
    public var checkpoint: String

    /// Makes a configuration.
    /// - Parameters:
    ///   - clientID: the client uuid.
    ///   - userID: the user uuid.
    ///   - schemaVersion: the schema version.
    ///   - tables: the synced tables.
    ///   - pullLimit: the pull page size, or nil.
    ///   - checkpoint: the starting cursor of a new store.
    public init(
        clientID: String, userID: String, schemaVersion: Int = 1, tables: [TableConfig], pullLimit: Int? = nil, checkpoint: String = "0"
    ) {
        self.clientID = clientID
        self.userID = userID
        self.schemaVersion = schemaVersion
        self.tables = tables
        self.pullLimit = pullLimit
        self.checkpoint = checkpoint
    }
}
