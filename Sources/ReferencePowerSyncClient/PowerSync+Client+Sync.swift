import Corpus
import JSON
import PowerSyncWire
import Transport

extension PowerSync.Client {
    /// Connects the sync stream once (`POST /sync/stream` from the buckets held) and reads it
    /// line by line as it arrives, until the service ends it or falls silent for 5 s, applying
    /// each checkpoint that completes, adds up and may be applied now: no local writes waiting to
    /// upload, and its write checkpoint at or past the client's own request after its last
    /// upload. A checkpoint that does not add up discards the buckets that did not, which the
    /// next stream asks for from the start. Partial completions are not applied here (see
    /// `follow()`).
    /// - Returns: the lines read.
    /// - Throws: `PowerSync.ClientError` (DISCONNECTED, DOWNLOAD for an error status or a bad line, REMOTE, STORE).
    public func sync() async throws(PowerSync.ClientError) -> Int {
        guard case .connected = link else { throw .disconnected("the sync stream needs the service") }
        try await connecting()
        let stream = try openStream(silence: 5)
        defer { stream.close() }
        var assembly = try heldAssembly()
        var lines = stream.lines.makeAsyncIterator()
        var count = 0
        do throws(PowerSync.ClientError) {
            while let line = try await next(&lines, of: stream, number: count + 1) {
                count += 1
                try consume(line, into: &assembly, partials: false)
            }
        } catch {
            failed(.download)
            throw error
        }
        recovered(.download)
        return count
    }

    /// Starts `POST /sync/stream` from the buckets held.
    /// - Parameter silence: seconds without a byte after which the transfer ends.
    /// - Returns: the stream, its lines arriving as the service flushes them.
    /// - Throws: `PowerSync.ClientError` (STORE).
    func openStream(silence: Int) throws(PowerSync.ClientError) -> LineStream {
        let held = try database.buckets()
        let positions: [JSONValue] = held.keys.sorted().map { name in
            ["after": .string(held[name]?.position.description ?? "0"), "name": .string(name)]
        }
        let body: JSONValue = [
            "buckets": .array(positions), "client_id": .string(configuration.clientID), "include_checksum": true, "raw_data": true,
        ]
        return LineStream(
            "POST", configuration.baseURL + "/sync/stream",
            headers: [
                ("Authorization", "\(PowerSync.Surface.clientScheme) \(configuration.token)"), ("Content-Type", "application/json"),
                ("Accept", "application/x-ndjson"),
            ],
            body: Array(CanonicalJSON.compact(body).utf8), silence: silence)
    }

    /// The stream's next line, decoded; nil once it ended well (the service closed it, or it
    /// fell silent after its head). A line that does not decode ends the stream: it is an error
    /// status's body (DOWNLOAD with the status) or a broken line (DOWNLOAD with the line).
    /// - Parameters:
    ///   - lines: the stream's iterator.
    ///   - stream: the stream.
    ///   - number: the 1-based number the line would have.
    /// - Returns: the line, or nil at the end.
    /// - Throws: `PowerSync.ClientError` (DOWNLOAD, REMOTE).
    func next(_ lines: inout AsyncStream<[UInt8]>.Iterator, of stream: LineStream, number: Int) async throws(PowerSync.ClientError)
        -> SyncLine?
    {
        guard let text = await lines.next(isolation: self) else {
            if let failure = Self.failure(of: stream) { throw failure }
            return nil
        }
        do {
            return try SyncLine(json: try JSONParser.parse(text))
        } catch {
            stream.close()
            while await lines.next(isolation: self) != nil {}
            if let failure = Self.failure(of: stream) { throw failure }
            throw .download("NDJSON line \(number) of the sync stream does not decode: \(error)")
        }
    }

    /// How an ended stream failed: an error status, or no answer (a transport fault, or no
    /// head within the silence); nil for a stream the service ended or that fell silent after
    /// its head.
    static func failure(of stream: LineStream) -> PowerSync.ClientError? {
        guard let ending = stream.ending else { return nil }
        if ending.status != 0 && ending.status != 200 { return .download("the sync stream answered status \(ending.status)") }
        if let error = ending.error, !(error.isSilence && ending.status == 200) {
            return .remote("the sync stream was not answered: \(error)")
        }
        return nil
    }

    /// Takes one line of a stream: applies what completes and may be applied now, discards
    /// what does not add up, and wakes the waits it syncs.
    /// - Parameters:
    ///   - line: the line.
    ///   - assembly: the stream's checkpoint assembly.
    ///   - partials: whether a partial completion's buckets are applied (the live stream).
    /// - Throws: `PowerSync.ClientError` (STORE).
    func consume(_ line: SyncLine, into assembly: inout CheckpointAssembly, partials: Bool) throws(PowerSync.ClientError) {
        switch assembly.receive(line) {
        case .none: break
        case .announced(let writeCheckpoint):
            if faults.contains(.waitResolvesMidCheckpoint), let writeCheckpoint { try database.markSynced(through: writeCheckpoint.value) }
        case .partiallyComplete(let partial, let writeCheckpoint):
            if faults.contains(.waitResolvesOnPartial), let writeCheckpoint { try database.markSynced(through: writeCheckpoint.value) }
            if partials, try mayApply(partial) {
                try apply(partial)
                assembly.applied(partial)
            }
        case .mismatch(let buckets):
            let database = self.database
            try database.connection.transaction { () throws(PowerSync.ClientError) in
                for name in buckets { try database.forgetBucket(name) }
            }
        case .complete(let checkpoint):
            // Validated: its write checkpoint is seen, whether or not it may be applied now (`sync_local`).
            if checkpoint.priority == nil, let seen = checkpoint.writeCheckpoint { try database.set(Self.lastSeenKey, seen.value) }
            if try mayApply(checkpoint) {
                try apply(checkpoint)
                assembly.applied(checkpoint)
            }
        }
        try settleWaits()
    }

    /// Whether a complete checkpoint, or a partial completion's buckets, may be applied now, as
    /// PowerSync's core decides (`sync_local.rs`, `can_apply_sync_changes`): no local writes
    /// waiting to upload, and the target at or below the `write_checkpoint` of the last *full*
    /// checkpoint validated since the last local write (a partial's own `write_checkpoint` does
    /// not count). Priority 0 is applied even so, as the core publishes it with uploads outstanding.
    func mayApply(_ checkpoint: CompletedCheckpoint) throws(PowerSync.ClientError) -> Bool {
        if checkpoint.priority == 0 { return true }
        let uploadsHeld = !faults.contains(.applyWithUploadsPending)
        if try database.queueDepth() > 0 && uploadsHeld { return false }
        if let target = try database.value(Self.targetKey), !faults.contains(.applyBeforeWriteCheckpoint),
            target != Self.pendingTarget || uploadsHeld
        {
            return target <= (try database.value(Self.lastSeenKey) ?? 0)
        }
        return true
    }

    /// A new connection to the service: in requests mode, the reconcile of the request counter
    /// that every sync iteration makes before its stream (`EstablishSyncStream`).
    func connecting() async throws(PowerSync.ClientError) {
        seeded = false
        try await reconcile()
    }

    /// Applies a checkpoint as one unit: its rows, buckets, the last checkpoint and the write
    /// checkpoint it acknowledges, in one local transaction; then marks the requests it covers
    /// synced (a kill in between is recovered at the next open from the applied write checkpoint).
    /// A partial completion's buckets are applied the same way, as one unit, but move neither the
    /// last checkpoint nor the write checkpoint, so no request syncs on one.
    func apply(_ checkpoint: CompletedCheckpoint) throws(PowerSync.ClientError) {
        let database = self.database
        let reached = self.reached
        try database.connection.transaction { () throws(PowerSync.ClientError) in
            for name in checkpoint.removed.union(checkpoint.restarted).sorted() { try database.clearRows(ofBucket: name) }
            for name in checkpoint.ops.keys.sorted() {
                for op in checkpoint.ops[name] ?? [] {
                    switch op.op {
                    case .put:
                        guard let table = op.objectType, let id = op.objectID else { continue }
                        try database.put(table, id, Self.columns(of: op.data), bucket: name)
                    case .remove:
                        guard let table = op.objectType, let id = op.objectID else { continue }
                        try database.delete(table, id)
                    case .clear: try database.clearRows(ofBucket: name)
                    case .move: break
                    }
                }
            }
            reached(.midCheckpoint)
            try database.setBuckets(checkpoint.buckets)
            guard checkpoint.priority == nil else { return }
            try database.set(Self.lastCheckpointKey, checkpoint.lastOpID.value)
            if let writeCheckpoint = checkpoint.writeCheckpoint {
                let applied = max(writeCheckpoint.value, try database.value(Self.appliedWriteCheckpointKey) ?? 0)
                try database.set(Self.appliedWriteCheckpointKey, applied)
            }
        }
        guard checkpoint.priority == nil else { return }
        reached(.afterCheckpointApplied)
        if let writeCheckpoint = checkpoint.writeCheckpoint { try database.markSynced(through: writeCheckpoint.value) }
    }

    /// A PUT's columns: its `data` as an object, or as the JSON text of one (`raw_data: true`).
    static func columns(of data: JSONValue?) -> JSONObject {
        switch data {
        case .object(let object)?: return object
        case .string(let text)?: return (try? JSONParser.parse(Array(text.utf8)))?.objectValue ?? JSONObject()
        default: return JSONObject()
        }
    }
}
