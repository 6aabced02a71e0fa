import Corpus
import JSON
import PowerSyncWire

extension PowerSync {
    /// What the server lane needs of a PowerSync-shaped service to play a PowerSync transcript:
    /// perform its source-side steps, answer its three endpoints as the user the transcript runs
    /// as, and keep a sync stream open while the source changes. The embedded service and
    /// `accord serve --profile powersync` over HTTP both conform (docs/powersync.md, "The server lane").
    public protocol ServerTarget: Sendable {
        /// What the target answers: a whole service, or only checkpoint requests (a team's custom
        /// checkpoint backend); the server lane reports the rest not applicable to the latter.
        var scope: PowerSync.TargetScope { get }

        /// Sets how the service answers for this case (the transcript's `service` settings).
        /// - Throws: `TargetError` when the service cannot be configured.
        func configure(_ settings: PowerSync.ServiceSettings) async throws(TargetError)

        /// Commits one source-database transaction (replicated at once unless it says otherwise).
        /// - Throws: `TargetError` when the service cannot take it.
        func apply(_ commit: SourceCommit) async throws(TargetError)

        /// Lets the service's replication catch up with the source database.
        /// - Throws: `TargetError` when the service cannot be asked.
        func replicate() async throws(TargetError)

        /// `GET /write-checkpoint2.json` as `userID`.
        /// - Parameters:
        ///   - query: the query parameters as an object.
        ///   - userID: the authenticated user.
        /// - Returns: the answer body.
        /// - Throws: `TargetError` when the service cannot be asked or does not answer 200.
        func writeCheckpoint(query: JSONValue, userID: String) async throws(TargetError) -> JSONValue

        /// `POST /sync/checkpoint-request` as `userID`.
        /// - Returns: the answer body.
        /// - Throws: `TargetError` when the service cannot be asked or does not answer 200.
        func checkpointRequest(body: JSONValue, userID: String) async throws(TargetError) -> JSONValue

        /// `POST /sync/stream` as `userID`: opens the stream.
        /// - Returns: the open stream.
        /// - Throws: `TargetError` when the service cannot be asked or does not answer 200.
        func openStream(body: JSONValue, userID: String) async throws(TargetError) -> any PowerSync.StreamHandle
    }
}

extension PowerSync {
    /// What a `PowerSync.ServerTarget` answers.
    public enum TargetScope: Sendable, Hashable {
        /// The three endpoints and the source side: a PowerSync-shaped service.
        case service
        /// Checkpoint requests only, with the reconcile rule (a team's custom checkpoint backend).
        case checkpointBackend
    }
}

extension PowerSync.ServerTarget {
    /// A whole service, unless a target says otherwise.
    public var scope: PowerSync.TargetScope { .service }
}

extension PowerSync {
    /// An open `POST /sync/stream` answer, read one NDJSON line at a time.
    public protocol StreamHandle: Sendable {
        /// The next line the service sends, or nil when it has nothing more to say: the stream ended,
        /// or (a stream stays open) nothing arrived within the target's patience.
        /// - Returns: the line as JSON, or nil.
        /// - Throws: `TargetError` for a line that is not JSON or a broken connection.
        func nextLine() async throws(TargetError) -> JSONValue?

        /// Closes the stream (the client hangs up).
        func close() async
    }
}

extension PowerSync {
    /// Makes a fresh, isolated target for one case.
    public typealias TargetFactory = @Sendable () throws(TargetError) -> any ServerTarget
}
