import KizunaWire
import PowerSyncWire
import Transport

extension PowerSyncClient {
    /// Connects the sync stream once (`POST /sync/stream` from the buckets held) and reads its
    /// lines until the service ends it, applying each checkpoint that completes, adds up and may
    /// be applied now: no local writes waiting to upload, and its write checkpoint at or past the
    /// client's own request after its last upload. A checkpoint that does not add up discards
    /// the buckets that did not, which the next stream asks for from the start.
    /// - Returns: the lines read.
    /// - Throws: `PowerSyncClientError` (DISCONNECTED, DOWNLOAD for an error status or a bad line, REMOTE, STORE).
    public func sync() async throws(PowerSyncClientError) -> Int {
        guard case .connected = link else { throw .disconnected("the sync stream needs the service") }
        let held = try database.buckets()
        let positions: [JSONValue] = held.keys.sorted().map { name in
            ["after": .string(held[name]?.position.description ?? "0"), "name": .string(name)]
        }
        let body: JSONValue = [
            "buckets": .array(positions), "client_id": .string(configuration.clientID), "include_checksum": true, "raw_data": true,
        ]
        let reply: ClientResponse
        do {
            reply = try await post("/sync/stream", body)
        } catch {
            failed(.download)
            throw .remote("the sync stream was not answered: \(error)")
        }
        guard reply.status == 200 else {
            failed(.download)
            throw .download("the sync stream answered status \(reply.status)")
        }
        var assembly = CheckpointAssembly(held: held, verifiesChecksums: !faults.contains(.applyChecksumMismatch))
        var count = 0
        for text in reply.body.split(separator: 0x0A, omittingEmptySubsequences: true) {
            count += 1
            let line: SyncLine
            do {
                line = try SyncLine(json: try JSONParser.parse(Array(text)))
            } catch {
                failed(.download)
                throw .download("NDJSON line \(count) of the sync stream does not decode: \(error)")
            }
            switch assembly.receive(line) {
            case .none: break
            case .announced(let writeCheckpoint):
                if faults.contains(.waitResolvesMidCheckpoint), let writeCheckpoint {
                    try database.markSynced(through: writeCheckpoint.value)
                }
            case .partiallyComplete(let writeCheckpoint):
                if faults.contains(.waitResolvesOnPartial), let writeCheckpoint { try database.markSynced(through: writeCheckpoint.value) }
            case .mismatch(let buckets):
                let database = self.database
                try database.connection.transaction { () throws(PowerSyncClientError) in
                    for name in buckets { try database.forgetBucket(name) }
                }
            case .complete(let checkpoint):
                if try mayApply(checkpoint) {
                    try apply(checkpoint)
                    assembly.applied(checkpoint)
                }
            }
        }
        recovered(.download)
        return count
    }

    /// Whether a complete checkpoint may be applied now.
    func mayApply(_ checkpoint: CompletedCheckpoint) throws(PowerSyncClientError) -> Bool {
        if try database.queueDepth() > 0 && !faults.contains(.applyWithUploadsPending) { return false }
        if let target = try database.value(Self.targetKey), !faults.contains(.applyBeforeWriteCheckpoint) {
            return (checkpoint.writeCheckpoint?.value ?? 0) >= target
        }
        return true
    }

    /// Applies a checkpoint as one unit: its rows, buckets, the last checkpoint and the write
    /// checkpoint it acknowledges, in one local transaction; then marks the requests it covers
    /// synced (a kill in between is recovered at the next open from the applied write checkpoint).
    func apply(_ checkpoint: CompletedCheckpoint) throws(PowerSyncClientError) {
        let database = self.database
        let reached = self.reached
        try database.connection.transaction { () throws(PowerSyncClientError) in
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
            try database.set(Self.lastCheckpointKey, checkpoint.lastOpID.value)
            if let writeCheckpoint = checkpoint.writeCheckpoint {
                let applied = max(writeCheckpoint.value, try database.value(Self.appliedWriteCheckpointKey) ?? 0)
                try database.set(Self.appliedWriteCheckpointKey, applied)
            }
        }
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
