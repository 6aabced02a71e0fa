import JSON
import KizunaWire

extension SyncEngine {
    /// Pulls pages until the checkpoint closes, a signal arrives, or `maxPages` pages were read; `has_more:true` pages
    /// are staged invisibly and the closing page commits everything with the cursor and the outbox rebase.
    /// - Parameter maxPages: stop after this many responses; nil pulls until the checkpoint closes.
    /// - Returns: how the pull ended, the committed cursor and the pages consumed.
    /// - Throws: `ClientError` (`REMOTE`, `PERMANENT_TRANSPORT`, `STORE`) or the `WireError` of a malformed response
    ///   (`JSON`, `UNKNOWN_SIGNAL`); any failure drops the staging and leaves the committed cursor where it was.
    public func pull(maxPages: Int? = nil) async throws -> PullReport {
        if await store.softBlocked && !faults.contains(.pushAfterReset) {
            return PullReport(outcome: .blocked, cursor: await store.cursor, pages: 0)
        }
        var pages = 0
        do {
            while true {
                let page = try await fetch()
                pages += 1
                if let signal = page.signal {
                    return try await handle(signal, pages: pages)
                }
                if page.hasMore && !faults.contains(.commitStagedPage) {
                    try await store.stage(page)
                } else {
                    try await store.commit(page)
                }
                if !page.hasMore { return PullReport(outcome: .closed, cursor: await store.cursor, pages: pages) }
                if let maxPages, pages >= maxPages { return PullReport(outcome: .staged, cursor: await store.cursor, pages: pages) }
            }
        } catch {
            // Nothing staged by a failed pull may survive it: the next pull restarts from the committed cursor.
            try? await store.dropStaging()
            if faults.contains(.dropCursorOnFailedCommit), (error as? ClientError)?.code == ClientError.Code.store.rawValue {
                await store.dropCursor()
            }
            throw error
        }
    }

    /// Handles a pull signal: RESET_REQUIRED drops the staging and latches the soft block in one transaction,
    /// CHECKPOINT_EXPIRED marks a rehydration.
    private func handle(_ signal: SignalType, pages: Int) async throws -> PullReport {
        switch signal {
        case .resetRequired:
            try await store.latchReset(droppingStaging: true)
        case .checkpointExpired:
            try await store.expireCheckpoint()
        }
        return PullReport(outcome: .signal, cursor: await store.cursor, pages: pages, signal: signal)
    }

    /// Sends one pull request from the current request cursor and reads its answer strictly.
    private func fetch() async throws -> PullResponse {
        let token: CursorToken
        do {
            token = try CursorToken(parsing: await store.requestCursor)
        } catch {
            throw ClientError(.store, "the stored cursor is not a cursor token: \(error)")
        }
        let buckets = configuration.tables.map { Bucket(table: $0.name, params: [$0.bucketColumn: .string(configuration.userID)]) }
        let request = PullRequest(
            buckets: buckets, cursor: token, schemaVersion: configuration.schemaVersion, limit: configuration.pullLimit,
            clientID: configuration.clientID)
        let reply: RemoteReply
        do {
            reply = try await remote.send(.pull, body: Array(CanonicalJSON.compact(request.json).utf8))
        } catch {
            throw ClientError(.remote, "pull: \(error)")
        }
        guard (200..<300).contains(reply.status) else {
            let failure = PostgRESTFailure(reply)
            throw ClientError(failure.isPermanent ? .permanentTransport : .remote, "pull: \(failure)")
        }
        return try PullResponse(bytes: reply.body)
    }
}
