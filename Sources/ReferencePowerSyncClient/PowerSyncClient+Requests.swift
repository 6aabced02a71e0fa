import Corpus
import KizunaWire
import PowerSyncWire
import Transport

extension PowerSyncClient {
    /// Uploads the whole queue as one `POST /accord/upload`; after an accepted upload, makes the
    /// client's own checkpoint request, whose id every checkpoint applied from then on must reach.
    /// - Returns: the entries uploaded (0 when the queue was empty) and the client's own request.
    /// - Throws: `PowerSyncClientError` (UPLOAD for an error status, REMOTE, STORE).
    public func upload() async throws(PowerSyncClientError) -> (entries: Int, checkpointRequestID: String?) {
        let queue = try database.queue()
        if queue.isEmpty { return (0, nil) }
        let reply: ClientResponse
        do {
            reply = try await post("/accord/upload", ["crud": .array(queue)])
        } catch {
            failed(.upload)
            throw .remote("the upload was not answered: \(error)")
        }
        guard (200..<300).contains(reply.status) else {
            failed(.upload)
            throw .upload("the backend answered the upload with status \(reply.status); \(queue.count) entries stay queued")
        }
        try database.dequeue(queue.count)
        recovered(.upload)
        let own = try await requestCheckpoint()
        try database.set(Self.targetKey, Int64(own))
        return (queue.count, own)
    }

    /// Requests a checkpoint: sends the counter's next id and keeps the greater of it and the answer.
    /// - Returns: the id the service answered, which names the request.
    /// - Throws: `PowerSyncClientError` (DISCONNECTED, REMOTE, DOWNLOAD for an answer that is not one, STORE).
    public func requestCheckpoint() async throws(PowerSyncClientError) -> String {
        guard case .connected = link else { throw .disconnected("a checkpoint request needs the service") }
        let counter = try database.value(Self.counterKey) ?? 0
        guard counter < Int64.max else {
            throw .download("the checkpoint request counter is at 2^63−1 (the service answered that id); no greater id exists to send")
        }
        let sent = counter + 1
        // Created, not sent: nothing of it is durable, so a kill here leaves no request behind.
        reached(.afterRequestCreated)
        let reply: ClientResponse
        do {
            reply = try await post(
                "/sync/checkpoint-request", ["checkpoint_request_id": .string(String(sent)), "client_id": .string(configuration.clientID)])
        } catch {
            throw .remote("the checkpoint request was not answered: \(error)")
        }
        guard reply.status == 200, let json = try? JSONParser.parse(reply.body), let answer = try? CheckpointRequestAnswer(json: json)
        else {
            throw .download(
                "the checkpoint request was answered with status \(reply.status): \(String(decoding: reply.body, as: UTF8.self))")
        }
        let id = answer.id.value
        try database.set(Self.counterKey, faults.contains(.idsRestartAfterReset) ? sent : max(sent, id))
        try database.addRequest(id)
        // The checkpoint acknowledging it may have been applied before its answer arrived (a live
        // stream reads on while the request is in flight): then it is synced already.
        if let applied = try database.value(Self.appliedWriteCheckpointKey), applied >= id { try database.markSynced(through: id) }
        return String(id)
    }

    /// An app waiting on a request: the request's id and how to answer it.
    struct Waiter: Sendable {
        var request: Int64
        var continuation: CheckedContinuation<PowerSyncWaitOutcome, Never>
    }

    /// Waits for a request to sync, at most `milliseconds`. The wait ends on an event: a
    /// checkpoint applied that covers the request (`resolved`), a disconnect, the live stream
    /// failing (`download-error`), or the timeout.
    /// - Parameters:
    ///   - id: the request id the service answered.
    ///   - milliseconds: the timeout.
    /// - Returns: how the wait ended.
    /// - Throws: `PowerSyncClientError` (UNKNOWN_REQUEST, STORE).
    public func waitForSync(_ id: String, timeout milliseconds: Int) async throws(PowerSyncClientError) -> PowerSyncWaitOutcome {
        guard let number = Int64(id), let synced = try database.requests()[number] else {
            throw .unknownRequest("no checkpoint request \(id) is held (a local reset forgets them)")
        }
        if synced { return .resolved }
        switch link {
        case .disconnected: return .disconnected
        case .connected(.upload?) where try database.queueDepth() > 0: return .uploadError
        case .connected(.download?): return .downloadError
        case .connected: break
        }
        let token = nextWaiter
        nextWaiter += 1
        // The deadline, not a poll: it answers the wait only if nothing else has by then.
        let deadline = Task {
            try? await Task.sleep(for: .milliseconds(milliseconds))
            self.expire(token)
        }
        defer { deadline.cancel() }
        return await withCheckedContinuation { continuation in
            waiters[token] = Waiter(request: number, continuation: continuation)
        }
    }

    /// The deadline of a wait passed: it ends as `timeout` unless its request synced meanwhile.
    func expire(_ token: Int) {
        guard let waiter = waiters.removeValue(forKey: token) else { return }
        let synced = (try? database.requests()[waiter.request]) == true
        waiter.continuation.resume(returning: synced || faults.contains(.timeoutReportedAsResolved) ? .resolved : .timeout)
    }

    /// Resolves the waits whose requests are now synced.
    /// - Throws: `PowerSyncClientError` (STORE).
    func settleWaits() throws(PowerSyncClientError) {
        if waiters.isEmpty { return }
        let requests = try database.requests()
        for (token, waiter) in waiters where requests[waiter.request] == true {
            waiters[token] = nil
            waiter.continuation.resume(returning: .resolved)
        }
    }

    /// Ends every wait with `outcome` (a disconnect, or the live stream failing).
    func endWaits(_ outcome: PowerSyncWaitOutcome) {
        let ended = waiters
        waiters = [:]
        for waiter in ended.values { waiter.continuation.resume(returning: outcome) }
    }
}
