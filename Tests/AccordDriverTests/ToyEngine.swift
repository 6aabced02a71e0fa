import AccordDriver
import Corpus
import JSON
import KizunaWire

/// A toy in-memory engine: enough of a client to exercise the driver loop.
actor ToyEngine: KizunaSync.EngineDriver {
    var capabilities: [String]
    var config: OpenRequest?
    var rows: [String: [String: JSONObject]] = [:]
    var outbox: [WriteRequest] = []
    var cursor = "0"
    var events: [EngineEvent] = []
    var closes = 0
    var failPushWith: (any Error)?

    init(capabilities: [String] = [DriverCapability.transforms, DriverCapability.atomic, DriverCapability.softDelete]) {
        self.capabilities = capabilities
    }

    func setPushFailure(_ error: (any Error)?) { failPushWith = error }

    func hello() async -> HelloResult { HelloResult(name: "toy", version: "0.1.0", capabilities: capabilities) }

    func open(_ request: OpenRequest) async throws {
        if request.store == "/refuse" { throw EngineError(.configInvalid, "refused store") }
        config = request
        cursor = request.checkpoint ?? "0"
    }

    func write(_ request: WriteRequest) async throws -> WriteResult {
        let mutation = request.mutation
        guard let table = config?.server.tables.first(where: { $0.name == mutation.table }) else {
            throw EngineError(.unknownTable, "no table \(mutation.table)")
        }
        if outbox.contains(where: { $0.mutation.mutationID == mutation.mutationID }) {
            throw EngineError(.localConstraint, "mutation id already queued")
        }
        switch mutation.op {
        case .insert: rows[table.name, default: [:]][mutation.pk] = mutation.columns
        case .update:
            var row = rows[table.name]?[mutation.pk] ?? JSONObject()
            for member in mutation.columns.members { row[member.key] = member.value }
            rows[table.name, default: [:]][mutation.pk] = row
        case .delete:
            if table.softDeleteColumn != nil { throw EngineError(.softDeleteViolation, "delete refused on \(table.name)") }
            rows[table.name]?[mutation.pk] = nil
        }
        outbox.append(request)
        events.append(EngineEvent(code: "LOCAL_CHANGED", mutationID: mutation.mutationID))
        return WriteResult(outboxDepth: outbox.count)
    }

    func push() async throws -> PushResult {
        if let failPushWith { throw failPushWith }
        if outbox.isEmpty { return PushResult(outcome: .nothing) }
        let sent = outbox.count
        outbox.removeAll()
        return PushResult(outcome: .sent, mutations: sent)
    }

    func pull(_ request: PullOptions) async throws -> PullResult {
        PullResult(outcome: .closed, cursor: cursor, pages: 1)
    }

    func state(_ request: StateOptions) async throws -> StateResult {
        var selected: [String: [String: JSONObject]] = [:]
        for table in request.tables ?? (config?.server.tables.map(\.name) ?? []) { selected[table] = rows[table] ?? [:] }
        return StateResult(rows: selected, cursor: cursor, outboxDepth: outbox.count, events: events)
    }

    func close() async throws { closes += 1 }
}
