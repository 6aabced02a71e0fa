import AccordDriver
import Corpus
import JSON
import KizunaWire
import Transport

/// A deliberately naive second engine, in memory, wrapped with the driver library: it pushes
/// the whole outbox as one non-atomic batch, keeps its optimistic value on a rejection,
/// commits every pull page (and its cursor) at once, and ignores signals.
actor ToyEngine: KizunaSync.EngineDriver {
    /// Extra ways to be wrong, for the lane's own tests.
    enum Quirk: Sendable {
        /// Every write also fires a pull nobody asked for.
        case rpcOnWrite
        /// A hard delete on a soft-delete table answers SOFT_DELETE_VIOLATION but is queued anyway.
        case queueRefusedWrite
    }

    private let quirks: Set<Quirk>
    private var open: OpenRequest?
    private var rows: [String: [String: JSONObject]] = [:]
    private var outbox: [Mutation] = []
    private var cursor = "0"
    private var events: [EngineEvent] = []
    private var watermark: String?
    private var session: CurlSession?

    init(quirks: Set<Quirk> = []) { self.quirks = quirks }

    func hello() async -> HelloResult {
        HelloResult(
            name: "toy-engine", version: "0.0.1",
            capabilities: quirks.contains(.queueRefusedWrite) ? ["transforms", "soft-delete"] : ["transforms"])
    }

    func open(_ request: OpenRequest) async throws {
        open = request
        cursor = request.checkpoint ?? "0"
        session = try CurlSession()
    }

    func write(_ request: WriteRequest) async throws -> WriteResult {
        let m = request.mutation
        switch m.op {
        case .delete: rows[m.table]?[m.pk] = nil
        case .insert: rows[m.table, default: [:]][m.pk] = m.columns
        case .update:
            guard var row = rows[m.table]?[m.pk] else { break }
            for member in m.columns.members { row[member.key] = member.value }
            for (column, transform) in m.transforms { row[column] = transform.applied(to: row[column]) ?? row[column] }
            rows[m.table]?[m.pk] = row
        }
        outbox.append(m)
        events.append(EngineEvent(code: "LOCAL_CHANGED", mutationID: m.mutationID))
        if quirks.contains(.rpcOnWrite) { _ = try? await pull(PullOptions(maxPages: 1)) }
        if quirks.contains(.queueRefusedWrite), m.op == .delete,
            open?.server.tables.first(where: { $0.name == m.table })?.softDeleteColumn != nil
        {
            throw EngineError(.softDeleteViolation, "refused, but queued anyway")
        }
        return WriteResult(outboxDepth: outbox.count)
    }

    func push() async throws -> PushResult {
        guard !outbox.isEmpty else { return PushResult(outcome: .nothing) }
        let request = PushRequest(
            atomic: false, mutations: outbox, lastMutationID: watermark, schemaVersion: open?.schemaVersion ?? 1, clientID: open?.clientID)
        let response = try await rpc("push", request.json)
        let sent = outbox.count
        if case .array(let verdicts)? = response["verdicts"] {
            for verdict in verdicts {
                if verdict["verdict"] == .string("applied") { watermark = verdict["mutation_id"]?.stringValue }
                if verdict["verdict"] == .string("rejected") {
                    events.append(EngineEvent(code: "MUTATION_REJECTED", mutationID: verdict["mutation_id"]?.stringValue))
                }
            }
        }
        outbox.removeAll()
        return PushResult(outcome: .sent, mutations: sent)
    }

    func pull(_ request: PullOptions) async throws -> PullResult {
        guard let open else { throw EngineError(.store, "not open") }
        var pages = 0
        while true {
            var body: JSONObject = [
                "buckets": .array(
                    open.server.tables.map { ["table": .string($0.name), "params": .object([$0.bucketColumn: .string(open.userID)])] }),
                "client_id": .string(open.clientID), "cursor": .string(cursor), "schema_version": .number(JSONNumber(open.schemaVersion)),
            ]
            if let limit = open.pullLimit { body["limit"] = .number(JSONNumber(limit)) }
            let page = try await rpc("pull", .object(body))
            pages += 1
            for row in page["rows"]?.arrayValue ?? [] {
                if let table = row["table"]?.stringValue, let pk = row["pk"]?.stringValue, let value = row["row"]?.objectValue {
                    rows[table, default: [:]][pk] = value
                }
            }
            for tombstone in page["tombstones"]?.arrayValue ?? [] {
                if let table = tombstone["table"]?.stringValue, let pk = tombstone["pk"]?.stringValue { rows[table]?[pk] = nil }
            }
            cursor = page["cursor"]?.stringValue ?? cursor
            let more = page["has_more"] == .bool(true)
            if !more { return PullResult(outcome: .closed, cursor: cursor, pages: pages) }
            if let max = request.maxPages, pages >= max { return PullResult(outcome: .staged, cursor: cursor, pages: pages) }
        }
    }

    func state(_ request: StateOptions) async throws -> StateResult {
        var visible: [String: [String: JSONObject]] = [:]
        for table in request.tables ?? open?.server.tables.map(\.name) ?? [] { visible[table] = rows[table] ?? [:] }
        return StateResult(rows: visible, cursor: cursor, outboxDepth: outbox.count, events: events, journal: [])
    }

    func close() async throws {}

    private func rpc(_ name: String, _ body: JSONValue) async throws -> JSONValue {
        guard let open, let session else { throw EngineError(.store, "not open") }
        let headers = [
            ("Authorization", "Bearer \(open.jwt)"), ("apikey", open.apikey), ("Content-Type", "application/json"),
            ("Accept", "application/json"), ("Content-Profile", "kizunasync"),
        ]
        let reply: ClientResponse
        do {
            reply = try await session.send(
                "POST", open.baseURL + "/rest/v1/rpc/" + name, headers: headers, body: Array(CanonicalJSON.compact(body).utf8), timeout: 5)
        } catch {
            throw EngineError(.remote, "\(error)")
        }
        guard reply.status == 200 else { throw EngineError(.remote, "HTTP \(reply.status)") }
        return try JSONParser.parse(reply.body)
    }
}
