import AccordTestSupport
import Corpus
import Foundation
import JSON
import KizunaWire

@testable import ReferenceClient

/// An engine over a real SQLite file in a temporary directory, with an in-memory remote.
struct Rig {
    static let client = "00000000-0000-4000-8000-c10000000001"
    static let user = Client.owner

    let engine: SyncEngine
    let remote: InMemoryRemote
    let path: String

    var store: ClientStore { engine.store }

    /// Opens (or reopens) an engine at `path` (a fresh temporary file by default).
    static func make(
        faults: Set<ClientFault> = [], path: String = Client.temporaryPath(), tables: [TableConfig] = [Client.todos, Client.notes],
        pullLimit: Int? = nil, checkpoint: String = "0", remote: InMemoryRemote = InMemoryRemote()
    ) throws -> Rig {
        let configuration = ClientConfiguration(
            clientID: client, userID: user, tables: tables, pullLimit: pullLimit, checkpoint: checkpoint)
        let clock: @Sendable () -> Date = { Date(timeIntervalSince1970: 1_767_225_602) }  // 2026-01-01T00:00:02Z
        let engine = try SyncEngine.open(path: path, remote: remote, configuration: configuration, faults: faults, clock: clock)
        return Rig(engine: engine, remote: remote, path: path)
    }

    /// The bodies sent so far, parsed.
    func sent() async -> [JSONValue] {
        await remote.sentBodies().map { (try? JSONParser.parse($0)) ?? .null }
    }

    /// A row of todos by number.
    func todo(_ n: Int) async throws -> JSONObject? { try await store.row(table: "todos", pk: Client.rowKey(n)) }
}

/// Wire bodies for scripted answers.
enum Wire {
    /// A todo row numbered `n`.
    static func row(_ n: Int, title: String, extra: JSONObject = [:]) -> JSONObject {
        var row: JSONObject = ["done": false, "owner_id": .string(Client.owner), "title": .string(title)]
        for member in extra.members { row[member.key] = member.value }
        // Key order as the store keeps it (canonical), so that rows compare equal.
        return (try? JSONParser.parse(CanonicalJSON.compact(.object(row))))?.objectValue ?? row
    }

    /// A pull page.
    static func page(
        cursor: String, hasMore: Bool = false, rows: [(Int, JSONObject, Int)] = [], tombstones: [(Int, Int)] = [],
        signal: String? = nil, conflicts: [JSONValue]? = nil
    ) -> String {
        var object: JSONObject = [
            "cursor": .string(cursor), "has_more": .bool(hasMore),
            "rows": .array(
                rows.map { ["pk": .string(Client.rowKey($0.0)), "row": .object($0.1), "seq": .string(String($0.2)), "table": "todos"] }),
            "signal": signal.map { ["type": .string($0)] } ?? .null,
            "tombstones": .array(
                tombstones.map {
                    [
                        "deleted_at": "2026-01-01T00:00:05.000Z", "pk": .string(Client.rowKey($0.0)), "seq": .string(String($0.1)),
                        "table": "todos",
                    ]
                }),
        ]
        if let conflicts { object["conflicts"] = .array(conflicts) }
        return CanonicalJSON.compact(.object(object))
    }

    /// An applied verdict.
    static func applied(_ n: Int, row: JSONObject? = nil) -> JSONValue {
        var object: JSONObject = ["mutation_id": .string(Client.mutationID(n)), "verdict": "applied"]
        if let row { object["server_row"] = .object(row) }
        return .object(object)
    }

    /// A rejected verdict.
    static func rejected(_ n: Int, _ reason: String, row: JSONObject?) -> JSONValue {
        [
            "mutation_id": .string(Client.mutationID(n)), "reason": .string(reason), "server_row": row.map { .object($0) } ?? .null,
            "verdict": "rejected",
        ]
    }

    /// A verdicts answer.
    static func verdicts(_ items: JSONValue...) -> String { verdicts(list: items) }

    /// A verdicts answer from a list.
    static func verdicts(list: [JSONValue]) -> String { CanonicalJSON.compact(["verdicts": .array(list)]) }

    /// An abort answer.
    static func aborted(_ n: Int, _ reason: String, row: JSONObject?) -> String {
        CanonicalJSON.compact([
            "batch": [
                "offender_mutation_id": .string(Client.mutationID(n)), "outcome": "aborted", "reason": .string(reason),
                "server_row": row.map { .object($0) } ?? .null,
            ]
        ])
    }

    /// A signal answer.
    static func signal(_ type: String) -> String { CanonicalJSON.compact(["signal": ["type": .string(type)]]) }

    /// A PostgREST error answer.
    static func error(_ status: Int, _ code: String) -> InMemoryRemote.Answer {
        let body = CanonicalJSON.compact(["code": .string(code), "details": .null, "hint": .null, "message": "refused"])
        return .reply(RemoteReply(status: status, body: Array(body.utf8)))
    }
}

/// The engine code a call fails with, or nil when it succeeds.
func failure(_ call: () async throws -> Void) async -> String? {
    do {
        try await call()
        return nil
    } catch let error as ClientError {
        return error.code
    } catch let error as WireError {
        return error.protocolCode
    } catch {
        return "\(error)"
    }
}
