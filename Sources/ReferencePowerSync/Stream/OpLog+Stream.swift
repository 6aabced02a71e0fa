import PowerSyncWire

extension OpLog {
    /// What the stream says next: nothing when the user's checkpoint has not changed since the
    /// last one sent; otherwise a `checkpoint` (the first) or `checkpoint_diff`, each bucket's
    /// new ops in pages by priority (0 first, then grant order), a `partial_checkpoint_complete`
    /// after each priority batch but the last, and `checkpoint_complete`.
    /// - Parameters:
    ///   - cursor: the stream; its positions and sent checkpoint advance.
    ///   - pageOps: the most ops one data line carries (nil: no limit).
    ///   - faults: seeded faults.
    /// - Returns: the lines, in order.
    func answer(_ cursor: inout StreamCursor, pageOps: Int?, faults: Set<PowerSync.ServiceFault>) throws(PowerSync.ServiceError)
        -> [SyncLine]
    {
        let head = try position("head")
        let write = try acknowledged(user: cursor.userID, client: cursor.clientID, replicated: try position("replicated"))
        var buckets: [BucketChecksum] = []
        for held in try self.buckets(of: cursor.userID) {
            let ops = try self.ops(in: held.name, after: 0, through: head)
            let sum = ops.reduce(Checksum.zero) { sum, op in op.op == "CLEAR" ? Checksum(op.checksum) : sum + Checksum(op.checksum) }
            let checksum = faults.contains(.checksumOffByOne) ? sum + Checksum(1) : sum
            buckets.append(BucketChecksum(bucket: held.name, checksum: checksum, count: ops.count, priority: held.priority))
        }
        let now = StreamCursor.Sent(writeCheckpoint: write, buckets: buckets)
        if now == cursor.sent { return [] }
        let lastOpID = Self.opID(head)
        var lines: [SyncLine] = []
        if let sent = cursor.sent {
            let updated = buckets.filter { !sent.buckets.contains($0) }
            let kept = Set(buckets.map(\.bucket))
            let candidates = faults.contains(.diffRemovesUnheldBucket) ? try knownBuckets() : sent.buckets.map(\.bucket)
            let removed = candidates.filter { !kept.contains($0) }
            lines.append(
                .checkpointDiff(
                    CheckpointDiff(
                        lastOpID: lastOpID, writeCheckpoint: write.map(Self.opID), updatedBuckets: updated, removedBuckets: removed)))
            for name in removed { cursor.positions[name] = nil }
        } else {
            lines.append(.checkpoint(Checkpoint(lastOpID: lastOpID, writeCheckpoint: write.map(Self.opID), buckets: buckets)))
        }
        cursor.sent = now
        lines += try data(&cursor, buckets: buckets, head: head, pageOps: pageOps, faults: faults)
        let complete = faults.contains(.completeStaleLastOpID) ? Self.opID(head - 1) : lastOpID
        lines.append(.checkpointComplete(lastOpID: complete))
        return lines
    }

    /// The data lines of the buckets with ops the client lacks, by priority batch, with a
    /// partial completion after each batch but the last.
    private func data(
        _ cursor: inout StreamCursor, buckets: [BucketChecksum], head: Int64, pageOps: Int?, faults: Set<PowerSync.ServiceFault>
    ) throws(PowerSync.ServiceError) -> [SyncLine] {
        var batches: [(priority: Int, buckets: [(name: String, ops: [StoredOp])])] = []
        for bucket in buckets.sorted(by: { $0.priority < $1.priority }) {
            let ops = try self.ops(in: bucket.bucket, after: cursor.positions[bucket.bucket] ?? 0, through: head)
            if ops.isEmpty {
                // No line for a range without ops, but the position moves on to the checkpoint, as
                // PowerSync's service reports an empty chunk's progress (sync.ts L480-489).
                cursor.positions[bucket.bucket] = head
                continue
            }
            if batches.last?.priority == bucket.priority {
                batches[batches.count - 1].buckets.append((bucket.bucket, ops))
            } else {
                batches.append((bucket.priority, [(bucket.bucket, ops)]))
            }
        }
        var lines: [SyncLine] = []
        for (index, batch) in batches.enumerated() {
            for (name, ops) in batch.buckets {
                var position = cursor.positions[name] ?? 0
                let size = max(1, pageOps ?? ops.count)
                for start in stride(from: 0, to: ops.count, by: size) {
                    let page = ops[start..<min(start + size, ops.count)]
                    let last = page.last?.opID ?? position
                    let after = faults.contains(.dataAfterDoesNotChain) && position > 0 ? position - 1 : position
                    lines.append(
                        .data(
                            BucketData(
                                bucket: name, ops: page.map(Self.entry), hasMore: start + size < ops.count, after: Self.opID(after),
                                nextAfter: Self.opID(last))))
                    position = last
                }
                cursor.positions[name] = position
            }
            if index < batches.count - 1 {
                let priority = faults.contains(.partialClaimsNextPriority) ? batches[index + 1].priority : batch.priority
                lines.append(.partialCheckpointComplete(lastOpID: Self.opID(head), priority: priority))
            }
        }
        return lines
    }

    private static func entry(_ op: StoredOp) -> OplogEntry {
        OplogEntry(
            opID: opID(op.opID), op: OpType(rawValue: op.op) ?? .put, checksum: Checksum(op.checksum), objectType: op.objectType,
            objectID: op.objectID, subkey: op.subkey, data: op.data.map { .string($0) })
    }

    /// An op id from a stored, never negative, integer.
    static func opID(_ value: Int64) -> OpID { OpID(max(0, value)) ?? .zero }
}
