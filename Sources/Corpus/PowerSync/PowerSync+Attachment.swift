import PowerSyncWire

extension PowerSync {
    /// Where a PowerSync client's local database lives and how it reaches the service: what a
    /// driver's `attach` request carries (docs/driver-protocol.md) and what the reference client is
    /// configured with.
    public struct Attachment: Sendable, Hashable {
        /// The local database path (a file the client owns and may create).
        public var store: String
        /// The service's base URL without a trailing slash, e.g. "http://127.0.0.1:54321"; the client
        /// calls `POST <base_url>/sync/stream`, `POST <base_url>/sync/checkpoint-request` and
        /// `POST <base_url>/accord/upload`.
        public var baseURL: String
        /// The bearer token of every request.
        public var token: String
        /// The authenticated user.
        public var userID: String
        /// The PowerSync client id.
        public var clientID: String
        /// How the client follows its uploads: legacy (write checkpoints, the core's default; the
        /// app's checkpoint requests are refused with REQUESTS_OFF), requests (reconciled at
        /// connect) or custom.
        public var checkpointMode: PowerSync.CheckpointMode
        /// In custom mode, the app's checkpoint backend the requests go to.
        public var checkpointBackend: PowerSync.CheckpointBackend?

        /// Makes an attachment; a trailing slash of `baseURL` is dropped.
        public init(
            store: String, baseURL: String, token: String, userID: String, clientID: String,
            checkpointMode: PowerSync.CheckpointMode = .legacy,
            checkpointBackend: PowerSync.CheckpointBackend? = nil
        ) {
            self.store = store
            self.baseURL = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
            self.token = token
            self.userID = userID
            self.clientID = clientID
            self.checkpointMode = checkpointMode
            self.checkpointBackend = checkpointBackend
        }
    }
}
