import JSON
import PowerSyncWire

extension PowerSync.RecordingToTranscript {
    /// The bucket that takes the op ids a stream skips: ops of rows the recorded user never saw,
    /// granted to nobody, so the embedded service numbers the user's ops as the recorded service did.
    static let unseenBucket = "accord-unseen-ops"

    /// One inferred source commit: where it goes (before the stream, or after a line of it) and
    /// what it changes.
    private struct Commit {
        /// The stream's NDJSON line the commit follows; 0 before the stream opens.
        var afterLine: Int
        /// The highest op id the checkpoint that announced it covers.
        var lastOpID: Int64
        /// Grants and revokes of the user's buckets, and write checkpoints no exchange explains.
        var membership: [JSONValue] = []
    }

    /// The source side of a recording that has none (no fixture calls: a live service whose
    /// source database was written by the app and other writers), inferred from what the
    /// service told the client: each checkpoint's new buckets are granted to the user at their
    /// priority and its removed ones revoked; each op a stream delivers is a PUT, REMOVE, MOVE or
    /// CLEAR committed with the checkpoint that first covers it, in op-id order, the op ids the
    /// user never saw filled by ops of `unseenBucket`, so the embedded service numbers the
    /// ops and the checkpoints as the recorded service did; a commit is placed before the stream
    /// for its first checkpoint, or `during` it after the line before a later checkpoint. A
    /// checkpoint request answered above the id sent, the client's first, shows an id an earlier
    /// session left: it becomes a `checkpoint_request` change before it.
    /// - Parameters:
    ///   - steps: the converted steps, in order, with no source side.
    ///   - user: the recorded user.
    /// - Returns: the steps with the inferred source side, renumbered, and what could not be inferred.
    static func inferredSource(_ steps: [JSONValue], user: String) -> (steps: [JSONValue], notes: [String]) {
        // First pass: every op any stream delivers, and every id any exchange answered, so that an
        // op a later stream delivers is committed where its checkpoint needs it (a stream cut
        // before its data) and a write checkpoint a later exchange answered is not stored twice.
        var known: [Int64: JSONValue] = [:]
        var answered: Set<Int64> = []
        var notes: [String] = []
        for step in steps {
            switch step["kind"]?.stringValue {
            case "sync-stream":
                for (index, json) in (step["lines"]?.arrayValue ?? []).enumerated() {
                    guard case .data(let data)? = try? SyncLine(json: json) else { continue }
                    let raw = json["data"]?["data"]?.arrayValue ?? []
                    for (entry, op) in zip(raw, data.ops) where known[op.opID.value] == nil {
                        if let change = change(op, raw: entry, bucket: data.bucket) {
                            known[op.opID.value] = change
                        } else {
                            notes.append("NDJSON line \(index + 1): op \(op.opID) has no object to put or remove, left out")
                        }
                    }
                }
            case "checkpoint-request":
                if let answer = try? CheckpointRequestAnswer(json: step["response"] ?? .null) { answered.insert(answer.id.value) }
            case "write-checkpoint":
                if let answer = try? WriteCheckpointAnswer(json: step["response"] ?? .null) {
                    answered.insert(answer.writeCheckpoint.value)
                }
            default: continue
            }
        }
        var out: [(step: JSONObject, duringOf: Int?, afterLine: Int)] = []
        var next: Int64 = 1
        var granted: Set<String> = []
        var clients: Set<String> = []
        var unseen = 0
        var commits = 0
        var earlier = 0
        for step in steps {
            guard var object = step.objectValue else { continue }
            object["n"] = nil
            switch object["kind"]?.stringValue {
            case "checkpoint-request":
                if let sent = try? CheckpointRequest(json: object["request"] ?? .null),
                    let answer = try? CheckpointRequestAnswer(json: object["response"] ?? .null), !clients.contains(sent.clientID)
                {
                    clients.insert(sent.clientID)
                    if answer.id > sent.id {
                        let change: JSONValue = [
                            "checkpoint_request": [
                                "client_id": .string(sent.clientID), "id": .string(answer.id.description), "user_id": .string(user),
                            ]
                        ]
                        out.append((["kind": "source", "inferred": true, "changes": [change]], nil, 0))
                        earlier += 1
                    }
                }
                out.append((object, nil, 0))
            case "sync-stream":
                let streamIndex = out.count
                out.append((object, nil, 0))
                let client = (try? SyncStreamRequest(json: object["request"] ?? .null))?.clientID
                let plan = streamCommits(
                    object["lines"]?.arrayValue ?? [], user: user, client: client, granted: &granted, answered: &answered)
                var before = false
                for commit in plan {
                    var changes = commit.membership
                    // Every op id up to the checkpoint: the op a stream delivers, or one the user never saw.
                    while next <= commit.lastOpID {
                        if let change = known[next] {
                            changes.append(change)
                        } else {
                            changes.append(unseenOp(next))
                            unseen += 1
                        }
                        next += 1
                    }
                    if changes.isEmpty { continue }
                    commits += 1
                    let source: JSONObject = ["kind": "source", "inferred": true, "changes": .array(changes)]
                    if commit.afterLine == 0 {
                        out.insert((source, nil, 0), at: streamIndex)
                        before = true
                    } else {
                        out.append((source, streamIndex + (before ? 1 : 0), commit.afterLine))
                    }
                }
            default:
                out.append((object, nil, 0))
            }
        }
        let beyond = known.keys.filter { $0 >= next }.count
        if beyond > 0 { notes.append("\(beyond) op(s) arrived with no checkpoint covering them, left out") }
        if commits > 0 || earlier > 0 {
            notes.insert(
                "no fixture calls: the source side is inferred from the streams, \(commits) commit(s)"
                    + (unseen > 0 ? ", \(unseen) op id(s) the user never saw filled in \(unseenBucket)" : "")
                    + (earlier > 0 ? ", \(earlier) checkpoint request id(s) an earlier session left" : ""), at: 0)
        }
        return (renumbered(out), notes)
    }

    /// The commits one stream implies, in line order: each checkpoint's membership changes and
    /// unexplained write checkpoint, and the op id it covers up to.
    private static func streamCommits(
        _ lines: [JSONValue], user: String, client: String?, granted: inout Set<String>, answered: inout Set<Int64>
    ) -> [Commit] {
        // A write checkpoint no exchange answered was stored otherwise (by the app's backend, or a
        // custom write checkpoint): stored for the stream's own user and client.
        func stored(_ id: OpID?, into commit: inout Commit) {
            guard let id, !answered.contains(id.value) else { return }
            answered.insert(id.value)
            if let client {
                commit.membership.append(
                    ["checkpoint_request": ["client_id": .string(client), "id": .string(id.description), "user_id": .string(user)]])
            } else {
                commit.membership.append(["write_checkpoint": ["id": .string(id.description), "user_id": .string(user)]])
            }
        }
        func revoke(_ name: String, into commit: inout Commit) {
            granted.remove(name)
            commit.membership.append(["revoke": ["bucket": .string(name), "user_id": .string(user)]])
        }
        var commits: [Commit] = []
        for (index, json) in lines.enumerated() {
            guard let line = try? SyncLine(json: json) else { continue }
            switch line {
            case .checkpoint(let checkpoint):
                // The stream's first checkpoint is the state it connected to, whatever keepalives came first.
                var commit = Commit(afterLine: commits.isEmpty ? 0 : index, lastOpID: checkpoint.lastOpID.value)
                // A full checkpoint names every bucket the user has: the others were revoked.
                let named = Set(checkpoint.buckets.map(\.bucket))
                for name in granted.subtracting(named).sorted() { revoke(name, into: &commit) }
                for bucket in checkpoint.buckets where !granted.contains(bucket.bucket) {
                    granted.insert(bucket.bucket)
                    commit.membership.append(grant(bucket, user: user))
                }
                stored(checkpoint.writeCheckpoint, into: &commit)
                commits.append(commit)
            case .checkpointDiff(let diff):
                var commit = Commit(afterLine: commits.isEmpty ? 0 : index, lastOpID: diff.lastOpID.value)
                for bucket in diff.updatedBuckets where !granted.contains(bucket.bucket) {
                    granted.insert(bucket.bucket)
                    commit.membership.append(grant(bucket, user: user))
                }
                for name in diff.removedBuckets where granted.contains(name) { revoke(name, into: &commit) }
                stored(diff.writeCheckpoint, into: &commit)
                commits.append(commit)
            default: continue
            }
        }
        return commits
    }

    private static func grant(_ bucket: BucketChecksum, user: String) -> JSONValue {
        var grant: JSONObject = ["bucket": .string(bucket.bucket), "user_id": .string(user)]
        if let priority = bucket.declaredPriority { grant["priority"] = .number(JSONNumber(priority)) }
        return ["grant": .object(grant)]
    }

    /// The source change that makes the service emit `op` in `bucket`, its checksum as written.
    private static func change(_ op: OplogEntry, raw: JSONValue, bucket: String) -> JSONValue? {
        let checksum = raw["checksum"] ?? op.checksum.json
        switch op.op {
        case .put:
            guard let type = op.objectType, let id = op.objectID else { return nil }
            let data: String =
                switch op.data {
                case .string(let text)?: text
                case let value?: CanonicalJSON.compact(value)
                case nil: "{}"
                }
            var put: JSONObject = [
                "bucket": .string(bucket), "checksum": checksum, "data": .string(data), "object_id": .string(id),
                "object_type": .string(type),
            ]
            if let subkey = op.subkey { put["subkey"] = .string(subkey) }
            return ["put": .object(put)]
        case .remove:
            guard let type = op.objectType, let id = op.objectID else { return nil }
            var remove: JSONObject = [
                "bucket": .string(bucket), "checksum": checksum, "object_id": .string(id), "object_type": .string(type),
            ]
            if let subkey = op.subkey { remove["subkey"] = .string(subkey) }
            return ["remove": .object(remove)]
        case .move: return ["move": ["bucket": .string(bucket), "checksum": checksum]]
        case .clear: return ["clear": ["bucket": .string(bucket), "checksum": checksum]]
        }
    }

    private static func unseenOp(_ id: Int64) -> JSONValue {
        [
            "put": [
                "bucket": .string(unseenBucket), "checksum": 0, "data": "{}", "object_id": .string("op-\(id)"),
                "object_type": "accord_unseen",
            ]
        ]
    }

    /// The steps numbered densely from 1, each `during` naming its stream's new number.
    private static func renumbered(_ steps: [(step: JSONObject, duringOf: Int?, afterLine: Int)]) -> [JSONValue] {
        steps.enumerated().map { index, entry in
            var step = entry.step
            step["n"] = .number(JSONNumber(index + 1))
            if let stream = entry.duringOf {
                step["during"] = ["step": .number(JSONNumber(stream + 1)), "after_line": .number(JSONNumber(entry.afterLine))]
            }
            return .object(step)
        }
    }
}
