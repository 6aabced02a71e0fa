import JSON
import KizunaWire
import ServerContract

/// `rpc/pull`: argument checks (22023, KZL01), the schema gate (RESET_REQUIRED), checkpoint
/// expiry, then one keyset page with its cursor token, tombstones and conflict journal.
struct PullHandler {
    let store: Store
    let config: EffectiveConfig
    /// Seqs stamped by held transactions that have not committed.
    let pending: Set<Int64>
    /// Seeded faults switched on (self-test only).
    var faults: Set<ServerFault> = []

    func handle(_ body: JSONValue, as identity: Identity) throws(ReferenceServerError) -> RPCReply {
        let request: PullRequest
        do {
            request = try PullRequest(json: body)
        } catch {
            return RequestErrors.reply(for: error)
        }
        let blocked = request.schemaVersion < config.minSchemaVersion && !faults.contains(.softBlockMissing)
        if blocked && !faults.contains(.signalWithRows) { return signal(.resetRequired, echoing: request.cursor) }
        var buckets: [String: [JSONObject]] = [:]
        for bucket in request.buckets {
            guard let table = config.tables[bucket.table] else {
                return .error(status: 404, code: "42P01", message: "relation \"\(bucket.table)\" is not a synced table")
            }
            if let column = table.bucketColumn, bucket.params[column] == nil {
                return .error(
                    status: 400, code: "KZL01", message: "table \"\(bucket.table)\" is bucketed by \(column): a pull must name it")
            }
            buckets[bucket.table, default: []].append(bucket.params)
        }
        let token = request.cursor
        guard let start = Int64(token.transferStart.text), let position = Int64(token.highWater.text) else {
            return .error(status: 400, code: "22003", message: "cursor \(token) is out of range")
        }
        var holes: [Int64] = []
        for hole in token.holes {
            guard let value = Int64(hole.text) else {
                return .error(status: 400, code: "22003", message: "cursor \(token) is out of range")
            }
            holes.append(value)
        }
        let horizon = try store.meta(.reapHorizon)
        if start != 0 && start < horizon && !faults.contains(.checkpointNeverExpires) { return signal(.checkpointExpired, echoing: token) }
        guard let client = request.clientID ?? identity.session else {
            return .error(
                status: 400, code: "22023", message: "no client id: the body names no client_id and the JWT has no session_id claim")
        }
        let caller = Caller(user: identity.user, client: client)
        let scanner = PageScanner(store: store, caller: caller, tables: config.tables, buckets: buckets, faults: faults)
        let highWater = max(position, try store.meta(.highWater))
        let page = try store.db.transaction { () throws(ReferenceServerError) -> PageScanner.Page in
            try scanner.scan(
                start: start, position: position, holes: holes, highWater: highWater, pending: pending,
                limit: request.limit ?? EffectiveConfig.defaultPullLimit, cap: config.maxPullScan)
        }
        var rows: [JSONValue] = []
        var tombstones: [JSONValue] = []
        for entry in page.entries {
            switch entry {
            case .row(let row):
                rows.append(["pk": .string(row.pk), "row": .object(row.data), "seq": .string(String(row.seq)), "table": .string(row.table)])
            case .tombstone(let tombstone):
                tombstones.append([
                    "deleted_at": .string(tombstone.deletedAt), "pk": .string(tombstone.pk), "seq": .string(String(tombstone.seq)),
                    "table": .string(tombstone.table),
                ])
            }
        }
        if faults.contains(.unsortedPage) { rows.reverse() }
        var response: JSONObject = [
            "cursor": .string(page.cursor), "has_more": .bool(page.hasMore), "rows": .array(rows),
            "signal": blocked ? ["type": .string(SignalType.resetRequired.rawValue)] : .null,
            "tombstones": .array(tombstones),
        ]
        let conflicts = try journal(buckets: buckets, caller: caller, after: position, upTo: page.covered)
        if !conflicts.isEmpty { response["conflicts"] = .array(conflicts) }
        return RPCReply(status: 200, body: .object(response))
    }

    /// Journal entries of journaled tables whose winning write this page covers, in the caller's buckets.
    private func journal(buckets: [String: [JSONObject]], caller: Caller, after: Int64, upTo: Int64) throws(ReferenceServerError)
        -> [JSONValue]
    {
        var found: [StoredConflict] = []
        for (name, params) in buckets {
            guard let table = config.tables[name], table.journal else { continue }
            for entry in try store.conflicts(table: name, after: after, upTo: upTo) {
                if let column = table.bucketColumn {
                    guard let bucket = entry.bucket, bucket == .string(caller.user), params.contains(where: { $0[column] == bucket })
                    else { continue }
                }
                found.append(entry)
            }
        }
        found.sort { ($0.winnerSeq, $0.table, $0.pk, $0.column) < ($1.winnerSeq, $1.table, $1.pk, $1.column) }
        return found.map {
            [
                "column_name": .string($0.column), "conflict_mode": .string($0.mode), "loser_value": $0.loser, "pk": .string($0.pk),
                "table": .string($0.table), "winner_mutation_id": .string($0.winnerMutation), "winner_seq": .string(String($0.winnerSeq)),
            ]
        }
    }

    /// A signal page: no data, has_more false, the incoming cursor echoed (I-8).
    private func signal(_ type: SignalType, echoing cursor: CursorToken) -> RPCReply {
        RPCReply(
            status: 200,
            body: [
                "cursor": .string(cursor.description), "has_more": false, "rows": [], "signal": ["type": .string(type.rawValue)],
                "tombstones": [],
            ])
    }
}
