import JSON
import KizunaWire

extension KizunaSync {
    /// What one device holds, kept the way PROTOCOL-NOTES §4 says a client keeps it: an outbox
    /// sent head first with one batch in flight (resent as is after a lost answer), pages of a
    /// transfer staged until the closing page commits them with its cursor, CHECKPOINT_EXPIRED
    /// restarting from "0", RESET_REQUIRED soft-blocking it. The realizer drives it with the
    /// reference's answers to make requests; the convergence oracle drives it with the target's.
    package struct Replica: Sendable, Hashable {
        /// Where the device's pulls stand.
        package enum Sync: Sendable, Hashable {
            /// Between transfers, at a committed cursor.
            case synced(cursor: String)
            /// Inside a transfer: the next page's cursor and the pages staged so far;
            /// `replacing`: the transfer began at "0", so it replaces what the device held.
            case transferring(cursor: String, staged: [Entry], replacing: Bool)
            /// RESET_REQUIRED latched: the device makes no further call.
            case blocked
        }

        /// One entry of a pull page.
        package enum Entry: Sendable, Hashable {
            case row(RowKey, JSONObject, seq: String)
            case tombstone(RowKey, seq: String)

            /// The seq, as a number for ordering (0 for a value that is not one).
            var order: UInt64 {
                switch self {
                case .row(_, _, let seq), .tombstone(_, let seq): UInt64(seq) ?? 0
                }
            }
        }

        /// A row as the device holds it, with the seq it came at.
        package struct Held: Sendable, Hashable {
            package var row: JSONObject
            package var seq: String
        }

        package let client: String
        package let user: String
        package let schemaVersion: Int
        package let tables: [String]
        package private(set) var sync = Sync.synced(cursor: "0")
        package private(set) var rows: [RowKey: Held] = [:]
        package private(set) var outbox: [Mutation] = []
        /// The batch sent and not answered yet.
        package private(set) var inFlight: JSONValue?
        package private(set) var lastMutationID: String?

        package init(client: String, user: String, schemaVersion: Int, tables: [String]) {
            self.client = client
            self.user = user
            self.schemaVersion = schemaVersion
            self.tables = tables
        }

        package var isBlocked: Bool { sync == .blocked }

        /// The committed cursor, when between transfers.
        package var cursor: String? {
            if case .synced(let cursor) = sync { return cursor }
            return nil
        }

        package mutating func write(_ mutation: Mutation) { outbox.append(mutation) }

        /// The next pull's body, or nil when the device is blocked.
        package func pullRequest(limit: Int?) -> JSONValue? {
            let cursor: String
            switch sync {
            case .blocked: return nil
            case .synced(let committed): cursor = committed
            case .transferring(let next, _, _): cursor = next
            }
            var body: JSONObject = [
                "buckets": .array(tables.map { ["params": ["owner_id": .string(user)], "table": .string($0)] }),
                "client_id": .string(client), "cursor": .string(cursor), "schema_version": .number(JSONNumber(schemaVersion)),
            ]
            if let limit { body["limit"] = .number(JSONNumber(limit)) }
            return .object(body)
        }

        /// The next push's body: the batch in flight again, else the outbox's first `count`
        /// entries; nil when blocked or there is nothing to send.
        package mutating func pushRequest(count: Int, atomic: Bool) -> JSONValue? {
            guard !isBlocked else { return nil }
            if let inFlight { return inFlight }
            guard !outbox.isEmpty else { return nil }
            let batch = Array(outbox.prefix(max(1, count)))
            let request = PushRequest(
                atomic: atomic, mutations: batch, lastMutationID: lastMutationID, schemaVersion: schemaVersion, clientID: client)
            inFlight = request.json
            return request.json
        }

        /// Takes a push's answer; `lost`: the answer never arrived, so the batch stays in flight.
        package mutating func pushed(status: Int, body: JSONValue, lost: Bool) {
            guard !lost, let sent = inFlight else { return }
            if (500..<600).contains(status) { return }
            if status == 200, body["signal"]?["type"]?.stringValue == SignalType.resetRequired.rawValue {
                sync = .blocked
                return
            }
            let count = sent["batch"]?["mutations"]?.arrayValue?.count ?? 0
            if status == 200 {
                lastMutationID = sent["batch"]?["mutations"]?.arrayValue?.last?["mutation_id"]?.stringValue ?? lastMutationID
            }
            outbox.removeFirst(min(count, outbox.count))
            inFlight = nil
        }

        /// Takes a pull's answer.
        package mutating func pulled(status: Int, body: JSONValue) {
            guard status == 200, let object = body.objectValue else { return }
            var staged: [Entry] = []
            var replacing = false
            switch sync {
            case .blocked: return
            case .synced(let cursor):
                replacing = cursor == "0"
            case .transferring(_, let before, let replace):
                staged = before
                replacing = replace
            }
            switch object["signal"]?["type"]?.stringValue {
            case SignalType.resetRequired.rawValue?:
                sync = .blocked
                return
            case SignalType.checkpointExpired.rawValue?:
                sync = .transferring(cursor: "0", staged: [], replacing: true)
                return
            default: break
            }
            // A page's rows and tombstones apply in stream (seq) order, whichever list holds them.
            var page: [Entry] = []
            for row in object["rows"]?.arrayValue ?? [] {
                guard let key = RowKey(row), let values = row["row"]?.objectValue, let seq = row["seq"]?.stringValue else { continue }
                page.append(.row(key, values, seq: seq))
            }
            for tombstone in object["tombstones"]?.arrayValue ?? [] {
                guard let key = RowKey(tombstone) else { continue }
                page.append(.tombstone(key, seq: tombstone["seq"]?.stringValue ?? "0"))
            }
            staged += page.enumerated().sorted { ($0.element.order, $0.offset) < ($1.element.order, $1.offset) }.map(\.element)
            guard let next = object["cursor"]?.stringValue else { return }
            if object["has_more"]?.boolValue == true {
                sync = .transferring(cursor: next, staged: staged, replacing: replacing)
                return
            }
            if replacing { rows = [:] }
            for entry in staged {
                switch entry {
                case .row(let key, let values, let seq): rows[key] = Held(row: values, seq: seq)
                case .tombstone(let key, _): rows[key] = nil
                }
            }
            sync = .synced(cursor: next)
        }
    }

    /// A row's identity: its table and key text.
    package struct RowKey: Sendable, Hashable, Comparable, CustomStringConvertible {
        package var table: String
        package var pk: String

        package init(table: String, pk: String) {
            self.table = table
            self.pk = pk
        }

        /// The key of a pulled row or tombstone, or of a mutation.
        package init?(_ entry: JSONValue) {
            guard let table = entry["table"]?.stringValue, let pk = entry["pk"]?.stringValue else { return nil }
            self.init(table: table, pk: pk)
        }

        package static func < (lhs: RowKey, rhs: RowKey) -> Bool { (lhs.table, lhs.pk) < (rhs.table, rhs.pk) }

        package var description: String { "\(table) \(pk)" }
    }
}
