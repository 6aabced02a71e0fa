import KizunaWire

extension KizunaSync {
    /// A sync engine the driver loop can drive; throw `EngineError` with a catalog code for any
    /// refusal or failure the protocol names.
    public protocol EngineDriver {
        /// Names the engine and its capabilities for the hello answer.
        /// - Returns: the hello answer.
        func hello() async -> HelloResult

        /// Opens (or reopens) the store for one case.
        /// - Parameter request: the store path, server, identities and table configuration.
        /// - Throws: `EngineError` (e.g. CONFIG_INVALID, STORE).
        func open(_ request: OpenRequest) async throws

        /// Applies one local write and enqueues its outbox entry in one local transaction.
        /// - Parameter request: the write.
        /// - Returns: the outbox depth afterwards.
        /// - Throws: `EngineError` (e.g. SOFT_DELETE_VIOLATION, LOCAL_CONSTRAINT); a refused write leaves the outbox unchanged.
        func write(_ request: WriteRequest) async throws -> WriteResult

        /// Runs one pushOnce.
        /// - Returns: what was sent.
        /// - Throws: `EngineError` (e.g. REMOTE, VERDICT_BIJECTION).
        func push() async throws -> PushResult

        /// Pulls until the checkpoint closes, a signal arrives, or `maxPages` pages were read.
        /// - Parameter request: the pull options.
        /// - Returns: how the pull ended and the cursor.
        /// - Throws: `EngineError` (e.g. REMOTE, UNKNOWN_SIGNAL).
        func pull(_ request: PullOptions) async throws -> PullResult

        /// Reports the local state.
        /// - Parameter request: the tables to report.
        /// - Returns: rows, cursor, outbox depth, events since open and journal.
        /// - Throws: `EngineError` (e.g. UNKNOWN_TABLE, STORE).
        func state(_ request: StateOptions) async throws -> StateResult

        /// Closes the store durably.
        /// - Throws: `EngineError` (e.g. STORE).
        func close() async throws
    }
}
