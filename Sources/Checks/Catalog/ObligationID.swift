/// The id of a client, kill-matrix or storage-fault obligation (`ClientObligation`): the one place
/// the lane's `CL-…`, `KM-…` and `SF-…` ids are spelled. Raw values are the stable ids reports carry.
public enum ObligationID: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Each RPC is the golden request.
    case request = "CL-REQUEST"
    /// After an uncertain ack the next RPC resends the same bytes.
    case resend = "CL-RESEND"
    /// An atomic run is pushed whole, as one atomic batch.
    case atomicRun = "CL-ATOMIC-RUN"
    /// The driver reports what happened.
    case outcome = "CL-OUTCOME"
    /// The durable cursor moves only when a closing page commits.
    case checkpoint = "CL-CHECKPOINT"
    /// After RESET_REQUIRED no further RPC.
    case softBlock = "CL-SOFT-BLOCK"
    /// A response that breaks the wire contract is refused and changes nothing.
    case wireStrict = "CL-WIRE-STRICT"
    /// A refused local write answers its engine code and changes nothing.
    case expectError = "CL-EXPECT-ERROR"
    /// The local row is the expected one.
    case localRow = "CL-LOCAL-ROW"
    /// The durable cursor is the expected one.
    case cursor = "CL-CURSOR"
    /// The outbox depth is the expected one.
    case outboxDepth = "CL-OUTBOX-DEPTH"
    /// The expected event was raised.
    case event = "CL-EVENT"
    /// The driver speaks accord-driver/1.
    case driver = "CL-DRIVER"
    /// Kill matrix: no write answered before a kill is lost.
    case lostEdit = "KM-LOST-EDIT"
    /// Kill matrix: no consumed answer is pushed again.
    case doubleApply = "KM-DOUBLE-APPLY"
    /// Kill matrix: the cursor is never ahead of its data.
    case cursorAhead = "KM-CURSOR-AHEAD"
    /// Kill matrix: the outbox is pushed in issue order.
    case outboxOrder = "KM-OUTBOX-ORDER"
    /// Kill matrix: each rejection is journaled once.
    case journalOnce = "KM-JOURNAL-ONCE"
    /// Kill matrix: a latched soft block survives a restart.
    case killSoftBlock = "KM-SOFT-BLOCK"
    /// Kill matrix: another identity never sees or sends the previous one's outbox.
    case identity = "KM-IDENTITY"
    /// Storage faults: an operation whose store writes fail does not report success.
    case falseSuccess = "SF-FALSE-SUCCESS"
    /// Storage faults: the failure reaches the driver's answer as the engine code `STORE`.
    case storeError = "SF-STORE-ERROR"
    /// Storage faults: nothing acknowledged before the fault is lost.
    case ackedLost = "SF-ACKED-LOST"
    /// Storage faults: nothing reported failed shows up as applied.
    case failedApplied = "SF-FAILED-APPLIED"
    /// Storage faults: the durable cursor is never ahead of its data nor discarded by a transient failure.
    case faultCursor = "SF-CURSOR"
    /// PowerSync: each request the client sends is the golden one, and the driver answers as §11 says.
    case powerSyncExchange = "PSC-EXCHANGE"
    /// PowerSync: a checkpoint is applied as one unit, only once complete.
    case powerSyncApplyWhole = "PSC-APPLY-WHOLE"
    /// PowerSync: no checkpoint is applied while local writes wait to upload.
    case powerSyncUploadsFirst = "PSC-UPLOADS-FIRST"
    /// PowerSync: no checkpoint is applied before the write checkpoint is reached.
    case powerSyncWriteCheckpoint = "PSC-WRITE-CHECKPOINT"
    /// PowerSync: a wait resolves only once a covering checkpoint is completely applied.
    case powerSyncWaitComplete = "PSC-WAIT-COMPLETE"
    /// PowerSync: a request made with writes pending resolves only after they uploaded and synced back.
    case powerSyncWaitUploads = "PSC-WAIT-UPLOADS"
    /// PowerSync: request ids continue after the id the backend returns.
    case powerSyncRequestID = "PSC-REQUEST-ID"
    /// PowerSync: a request survives a disconnect.
    case powerSyncRequestSurvives = "PSC-REQUEST-SURVIVES"
    /// PowerSync: timeout, disconnect, upload and download errors fail a wait distinctly.
    case powerSyncWaitFailures = "PSC-WAIT-FAILURES"
    /// PowerSync: a checksum mismatch discards the bucket's data and syncs it again.
    case powerSyncChecksum = "PSC-CHECKSUM"

    /// The id as reports print it.
    public var description: String { rawValue }
}
