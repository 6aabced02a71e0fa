extension ClientObligation {
    private static let seed = "seeds/powersync-checkpoint-requests.txt"

    /// The PowerSync client obligations (issue 24), checked by the client lane over PowerSync
    /// transcripts with a PowerSync driver (docs/driver-protocol.md §11, docs/powersync.md).
    public static let powerSync: [ClientObligation] = [
        ClientObligation(
            obligation: .powerSyncExchange,
            statement:
                "Each request the client sends is the golden one (POST /sync/stream from the positions of the last applied checkpoint, POST /sync/checkpoint-request, POST /accord/upload with the queue in order), bearing the token, and the driver answers each op in the shape §11 gives it.",
            source: "powersync-service docs/specs/sync-protocol.md; docs/driver-protocol.md §11",
            observed: "the PowerSync mock compares each request with the step's golden one; the lane checks each answer"),
        ClientObligation(
            obligation: .powerSyncApplyWhole,
            statement:
                "A checkpoint is applied as one unit and only once its checkpoint_complete arrived: a stream that ends mid-checkpoint, or after a partial completion, leaves the last applied checkpoint and its rows as they were.",
            source: "\(seed) (How Checkpoint Requests Work; Consistency)",
            observed: "assert-client: rows and last_checkpoint"),
        ClientObligation(
            obligation: .powerSyncUploadsFirst,
            statement:
                "No checkpoint is applied while local writes wait to upload, so sync never reverts the client's own pending changes.",
            source: "\(seed) (Relationship to Local Writes)",
            observed: "assert-client after a checkpoint arrived with uploads pending"),
        ClientObligation(
            obligation: .powerSyncWriteCheckpoint,
            statement:
                "After an upload the client makes its own checkpoint request and applies no checkpoint whose write_checkpoint is below it.",
            source: "\(seed) (Relationship to Local Writes); powersync-sqlite-core (target write checkpoint)",
            observed: "assert-client after a checkpoint that does not reach the upload's request"),
        ClientObligation(
            obligation: .powerSyncWaitComplete,
            statement:
                "wait-for-sync resolves only once a checkpoint acknowledging the request (or a later one) is completely applied: never on a partial completion, never mid-checkpoint.",
            source: "\(seed) (How Checkpoint Requests Work)",
            observed: "wait-for-sync outcomes and assert-client requests"),
        ClientObligation(
            obligation: .powerSyncWaitUploads,
            statement: "A request made while local writes wait to upload resolves only after they uploaded and their result synced back.",
            source: "\(seed) (Relationship to Local Writes)",
            observed: "wait-for-sync and assert-client requests while uploads or the upload's own request are outstanding"),
        ClientObligation(
            obligation: .powerSyncRequestID,
            statement:
                "Request ids increase and continue after the id the backend returns: after a local reset the client sends 1, and when the backend answers 42 the next request sends 43.",
            source: "\(seed) (Checkpoint Request IDs)",
            observed: "the checkpoint_request_id the client sends, and the id it reports"),
        ClientObligation(
            obligation: .powerSyncRequestSurvives,
            statement: "A request stays valid across a disconnect: after reconnecting it can be waited on again and resolves.",
            source: "\(seed) (Handling Wait Failures)",
            observed: "wait-for-sync after disconnect and reconnect"),
        ClientObligation(
            obligation: .powerSyncWaitFailures,
            statement:
                "A wait that cannot resolve fails distinctly: timeout, disconnected, upload-error or download-error, each for its cause.",
            source: "\(seed) (Handling Wait Failures)",
            observed: "wait-for-sync outcomes"),
        ClientObligation(
            obligation: .powerSyncChecksum,
            statement:
                "A checkpoint whose bucket checksum does not match its ops is not applied; the client discards the bucket's data and syncs it again from the start.",
            source: "powersync-sqlite-core crates/core/src/sync/checksum.rs; powersync-service docs/specs/sync-protocol.md",
            observed: "assert-client after a checksum-mismatch stream fault, and the next stream request"),
    ]
}
