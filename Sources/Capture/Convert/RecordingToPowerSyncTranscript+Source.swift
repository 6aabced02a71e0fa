import Corpus
import KizunaWire
import PowerSyncWire

extension RecordingToPowerSyncTranscript {
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
        /// The ops it delivers, by op id.
        var ops: [(id: Int64, change: JSONValue)] = []
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
        var out: [(step: JSONObject, duringOf: Int?, afterLine: Int)] = []
        var notes: [String] = []
        var next: Int64 = 1
        var granted: Set<String> = []
        var delivered: Set<Int64> = []
        var clients: Set<String> = []
        // Every id an exchange of the recording answered: a stream acknowledging another was given it otherwise.
        var answered: Set<Int64> = []
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
                    answered.insert(answer.id.value)
                    if answer.id > sent.id {
                        let change: JSONValue = [
                            "checkpoint_request": [
                                "client_id": .string(sent.clientID), "id": .string(answer.id.description), "user_id": .string(user),
                            ]
                        ]
                        out.append((["kind": "source", "changes": [change]], nil, 0))
                        earlier += 1
                    }
                }
                if let answer = try? CheckpointRequestAnswer(json: object["response"] ?? .null) { answered.insert(answer.id.value) }
                out.append((object, nil, 0))
            case "write-checkpoint":
                if let answer = try? WriteCheckpointAnswer(json: object["response"] ?? .null) {
                    answered.insert(answer.writeCheckpoint.value)
                }
                out.append((object, nil, 0))
            case "sync-stream":
                let streamIndex = out.count
                out.append((object, nil, 0))
                let client = (try? SyncStreamRequest(json: object["request"] ?? .null))?.clientID
                var plan = streamCommits(
                    object["lines"]?.arrayValue ?? [], user: user, client: client, granted: &granted, answered: &answered,
                    delivered: delivered)
                notes += plan.notes
                for index in plan.commits.indices {
                    var commit = plan.commits[index]
                    var changes = commit.membership
                    for (id, change) in commit.ops.sorted(by: { $0.id < $1.id }) {
                        if delivered.contains(id) { continue }
                        if id < next {
                            notes.append("op \(id) arrived after op \(next - 1) was numbered: not inferable, left out")
                            continue
                        }
                        while next < id {
                            changes.append(unseenOp(next))
                            unseen += 1
                            next += 1
                        }
                        changes.append(change)
                        delivered.insert(id)
                        next = id + 1
                    }
                    while next <= commit.lastOpID {
                        changes.append(unseenOp(next))
                        unseen += 1
                        next += 1
                    }
                    commit.ops = []
                    plan.commits[index] = commit
                    if changes.isEmpty { continue }
                    commits += 1
                    let source: JSONObject = ["kind": "source", "changes": .array(changes)]
                    if commit.afterLine == 0 {
                        out.insert((source, nil, 0), at: streamIndex)
                    } else {
                        out.append((source, streamIndex + (out[streamIndex].step["kind"] == "source" ? 1 : 0), commit.afterLine))
                    }
                }
            default:
                out.append((object, nil, 0))
            }
        }
        if commits > 0 || earlier > 0 {
            notes.insert(
                "no fixture calls: the source side is inferred from the streams, \(commits) commit(s)"
                    + (unseen > 0 ? ", \(unseen) op id(s) the user never saw filled in \(unseenBucket)" : "")
                    + (earlier > 0 ? ", \(earlier) checkpoint request id(s) an earlier session left" : ""), at: 0)
        }
        return (renumbered(out), notes)
    }

    /// The commits one stream implies, in line order.
    private static func streamCommits(
        _ lines: [JSONValue], user: String, client: String?, granted: inout Set<String>, answered: inout Set<Int64>, delivered: Set<Int64>
    ) -> (commits: [Commit], notes: [String]) {
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
        var commits: [Commit] = []
        var notes: [String] = []
        var ops: [(id: Int64, change: JSONValue)] = []
        for (index, json) in lines.enumerated() {
            guard let line = try? SyncLine(json: json) else { continue }
            switch line {
            case .checkpoint(let checkpoint):
                // The stream's first checkpoint is the state it connected to, whatever keepalives came first.
                var commit = Commit(afterLine: commits.isEmpty ? 0 : index, lastOpID: checkpoint.lastOpID.value)
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
                for name in diff.removedBuckets where granted.contains(name) {
                    granted.remove(name)
                    commit.membership.append(["revoke": ["bucket": .string(name), "user_id": .string(user)]])
                }
                stored(diff.writeCheckpoint, into: &commit)
                commits.append(commit)
            case .data(let data):
                let raw = json["data"]?["data"]?.arrayValue ?? []
                for (entry, op) in zip(raw, data.ops) where !delivered.contains(op.opID.value) {
                    guard let change = change(op, raw: entry, bucket: data.bucket) else {
                        notes.append("NDJSON line \(index + 1): op \(op.opID) has no object to put or remove, left out")
                        continue
                    }
                    ops.append((op.opID.value, change))
                }
            default: continue
            }
        }
        // Each op goes to the first checkpoint that covers it.
        for (id, change) in ops {
            guard let target = commits.firstIndex(where: { $0.lastOpID >= id }) ?? commits.indices.last else {
                notes.append("op \(id) arrived with no checkpoint announcing it, left out")
                continue
            }
            commits[target].ops.append((id, change))
        }
        return (commits, notes)
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
