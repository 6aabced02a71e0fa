import Corpus
import Foundation
import JSON
import PowerSyncWire
import Transport

extension PowerSync.Client {
    /// Uploads the whole queue as one `POST /accord/upload`; after an accepted upload, asks for
    /// the target every checkpoint applied from then on must reach: in requests and custom mode
    /// its own checkpoint request, in legacy mode `GET /write-checkpoint2.json?client_id=…` (as the SDKs'
    /// `getWriteCheckpoint`). The target replaces the pending one only while no local write came
    /// meanwhile (the core's `target_checkpoint_request_id` update).
    /// - Returns: the entries uploaded (0 when the queue was empty) and the client's own request
    ///   (requests and custom mode).
    /// - Throws: `PowerSync.ClientError` (UPLOAD for an error status, REMOTE, DOWNLOAD, STORE).
    public func upload() async throws(PowerSync.ClientError) -> (entries: Int, checkpointRequestID: String?) {
        let queue = try database.queue()
        if queue.isEmpty { return (0, nil) }
        // Its own request will need a reconciled counter: a client not connected since attach reconciles first.
        if configuration.checkpointMode.allocatesRequests, !seeded, case .connected = link { try await reconcile() }
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
        switch configuration.checkpointMode {
        case .requests, .custom:
            let own = try await nextRequest()
            try settleTarget(own)
            return (queue.count, String(own))
        case .legacy:
            try settleTarget(try await writeCheckpoint())
            return (queue.count, nil)
        }
    }

    /// Sets the apply gate to a concrete id, if local writes wait for one and none came since.
    private func settleTarget(_ id: Int64) throws(PowerSync.ClientError) {
        let database = self.database
        try database.connection.transaction { () throws(PowerSync.ClientError) in
            guard try database.value(Self.targetKey) == Self.pendingTarget, try database.queueDepth() == 0 else { return }
            try database.set(Self.targetKey, id)
        }
    }

    /// `GET /write-checkpoint2.json?client_id=…`: the write checkpoint that covers what the
    /// backend has committed so far (legacy mode).
    private func writeCheckpoint() async throws(PowerSync.ClientError) -> Int64 {
        let client = configuration.clientID.addingPercentEncoding(withAllowedCharacters: Self.queryValue) ?? configuration.clientID
        let reply: ClientResponse
        do {
            reply = try await get("/write-checkpoint2.json?client_id=\(client)")
        } catch {
            throw .remote("the write checkpoint was not answered: \(error)")
        }
        guard reply.status == 200, let json = try? JSONParser.parse(reply.body), let answer = try? WriteCheckpointAnswer(json: json) else {
            throw .download("the write checkpoint was answered with status \(reply.status): \(String(decoding: reply.body, as: UTF8.self))")
        }
        return answer.writeCheckpoint.value
    }

    /// The characters a query value keeps unescaped.
    private static let queryValue = CharacterSet.alphanumerics.union(CharacterSet(charactersIn: "-._~"))

    /// Requests a checkpoint: in requests mode, reconciles first if the client has not since it
    /// connected, sends the counter's next id and keeps the greater of it and the answer.
    /// - Returns: the id the service answered, which names the request.
    /// - Throws: `PowerSync.ClientError` (REQUESTS_OFF in legacy mode, DISCONNECTED, REMOTE,
    ///   DOWNLOAD for an answer that is not one, STORE).
    public func requestCheckpoint() async throws(PowerSync.ClientError) -> String {
        guard configuration.checkpointMode.allocatesRequests else {
            throw .requestsOff(
                "checkpoint requests are off: the client was attached in legacy checkpoint mode (checkpointMode: .requests() opts in)")
        }
        return String(try await nextRequest())
    }

    /// Reconciles the request counter with the service (or the app's backend) at connect, one
    /// reconcile at a time (requests and custom mode): posts
    /// `max(last requested, the concrete target, 1)` and seeds the counter with the answer, as
    /// the core's `initial_checkpoint_request_id` and `seed_checkpoint_request_id`.
    /// - Throws: `PowerSync.ClientError` (DISCONNECTED, REMOTE, DOWNLOAD, STORE).
    func reconcile() async throws(PowerSync.ClientError) {
        guard configuration.checkpointMode.allocatesRequests else { return }
        if let running = reconciling { return try await running.value.get() }
        let task = Task { () async -> Result<Void, PowerSync.ClientError> in
            do throws(PowerSync.ClientError) {
                try await self.seed()
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        reconciling = task
        defer { reconciling = nil }
        try await task.value.get()
    }

    /// The reconcile itself: post, then seed the counter with the answer.
    private func seed() async throws(PowerSync.ClientError) {
        let counter = try database.value(Self.counterKey) ?? 0
        let target = try database.value(Self.targetKey).flatMap { $0 > 0 && $0 != Self.pendingTarget ? $0 : nil } ?? 0
        let sent = max(counter, target, 1)
        let answer = try await postRequest(sent)
        try database.set(Self.counterKey, faults.contains(.idsRestartAfterReset) ? sent : answer)
        seeded = true
    }

    /// Allocates the counter's next id, posts it and records the request the answer names.
    private func nextRequest() async throws(PowerSync.ClientError) -> Int64 {
        guard case .connected = link else { throw .disconnected("a checkpoint request needs the service") }
        if !seeded { try await reconcile() }
        let counter = try database.value(Self.counterKey) ?? 0
        guard counter < Int64.max else {
            throw .download("the checkpoint request counter is at 2^63−1 (the service answered that id); no greater id exists to send")
        }
        let sent = counter + 1
        // Created, not sent: nothing of it is durable, so a kill here leaves no request behind.
        reached(.afterRequestCreated)
        let id = try await postRequest(sent)
        try database.set(Self.counterKey, faults.contains(.idsRestartAfterReset) ? sent : max(sent, id))
        try database.addRequest(id)
        // The checkpoint acknowledging it may have been applied before its answer arrived (a live
        // stream reads on while the request is in flight): then it is synced already.
        if let applied = try database.value(Self.appliedWriteCheckpointKey), applied >= id { try database.markSynced(through: id) }
        return id
    }

    /// `POST /sync/checkpoint-request` with `id`, or in custom mode the same body to the app's
    /// backend with the app's credential; the id answered.
    private func postRequest(_ id: Int64) async throws(PowerSync.ClientError) -> Int64 {
        guard case .connected = link else { throw .disconnected("a checkpoint request needs the service") }
        let body: JSONValue = ["checkpoint_request_id": .string(String(id)), "client_id": .string(configuration.clientID)]
        let reply: ClientResponse
        do {
            if let backend = configuration.checkpointBackend {
                reply = try await http.send(
                    "POST", backend.url, headers: [("Authorization", "Bearer \(backend.token)"), ("Content-Type", "application/json")],
                    body: Array(CanonicalJSON.compact(body).utf8), timeout: 5)
            } else {
                reply = try await post("/sync/checkpoint-request", body)
            }
        } catch {
            throw .remote("the checkpoint request was not answered: \(error)")
        }
        let backend = configuration.checkpointBackend != nil
        guard reply.status == 200, let json = try? JSONParser.parse(reply.body),
            let answer = try? (backend ? CheckpointRequestAnswer(backend: json) : CheckpointRequestAnswer(json: json))
        else {
            throw .download(
                "the checkpoint request was answered with status \(reply.status): \(String(decoding: reply.body, as: UTF8.self))")
        }
        return answer.id.value
    }

    /// An app waiting on a request: the request's id and how to answer it.
    struct Waiter: Sendable {
        var request: Int64
        var continuation: CheckedContinuation<PowerSync.WaitOutcome, Never>
    }

    /// Waits for a request to sync, at most `milliseconds`. The wait ends on an event: a
    /// checkpoint applied that covers the request (`resolved`), a disconnect, the live stream
    /// failing (`download-error`), or the timeout.
    /// - Parameters:
    ///   - id: the request id the service answered.
    ///   - milliseconds: the timeout.
    /// - Returns: how the wait ended.
    /// - Throws: `PowerSync.ClientError` (UNKNOWN_REQUEST, STORE).
    public func waitForSync(_ id: String, timeout milliseconds: Int) async throws(PowerSync.ClientError) -> PowerSync.WaitOutcome {
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
    /// - Throws: `PowerSync.ClientError` (STORE).
    func settleWaits() throws(PowerSync.ClientError) {
        if waiters.isEmpty { return }
        let requests = try database.requests()
        for (token, waiter) in waiters where requests[waiter.request] == true {
            waiters[token] = nil
            waiter.continuation.resume(returning: .resolved)
        }
    }

    /// Ends every wait with `outcome` (a disconnect, or the live stream failing).
    func endWaits(_ outcome: PowerSync.WaitOutcome) {
        let ended = waiters
        waiters = [:]
        for waiter in ended.values { waiter.continuation.resume(returning: outcome) }
    }
}
