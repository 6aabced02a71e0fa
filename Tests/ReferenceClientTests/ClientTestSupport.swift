import Corpus
import Foundation
import JSON

@testable import ReferenceClient

enum Client {
    static let todos = TableConfig(table: "todos", bucketColumn: "owner_id")
    static let notes = TableConfig(table: "notes", bucketColumn: "owner_id", softDeleteColumn: "deleted_at")
    static let owner = "00000000-0000-4000-8000-a10000000001"

    /// A mutation id (uuid) numbered `n`.
    static func mutationID(_ n: Int) -> String { "00000000-0000-4000-8000-f1" + String(format: "%010d", n) }

    /// A row key (uuid) numbered `n`.
    static func rowKey(_ n: Int) -> String { "00000000-0000-4000-8000-e1" + String(format: "%010d", n) }

    /// An in-memory store over todos and notes.
    static func store() throws -> ClientStore { try ClientStore.open(path: nil, tables: [todos, notes]) }

    /// A local write read exactly as a transcript's `local` step is.
    static func write(
        _ n: Int, _ op: String, table: String = "todos", pk: String, columns: JSONObject = [:], transforms: JSONObject? = nil
    ) throws -> LocalWrite {
        var object: JSONObject = [
            "kind": "local", "n": .number(JSONNumber(n)), "mutation_id": .string(mutationID(n)), "op": .string(op),
            "table": .string(table), "pk": .string(pk), "columns": .object(columns),
        ]
        if let transforms { object["transforms"] = .object(transforms) }
        let step = try Step(json: .object(object), at: .root)
        guard case .local(let write) = step.action else { throw SupportError.notLocal }
        return write
    }

    /// An insert of a todo numbered `row`.
    static func insert(_ n: Int, row: Int, table: String = "todos", title: String = "t") throws -> LocalWrite {
        try write(
            n, "insert", table: table, pk: rowKey(row),
            columns: ["id": .string(rowKey(row)), "owner_id": .string(owner), "title": .string(title)])
    }

    /// A fresh temporary database path, in `scratchFolder`.
    static func temporaryPath() -> String {
        scratchFolder + "/accord-client-\(UUID().uuidString).sqlite"
    }

    /// The folder this test process keeps its databases and stores in, removed as it exits
    /// (each test would otherwise leave its SQLite files behind in the temporary directory).
    static let scratchFolder: String = {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("accord-client-tests-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: Client.scratchFolder) }
        return path
    }()

    enum SupportError: Error { case notLocal }
}

extension ClientStore {
    /// The engine code a write is refused with, or nil when it is accepted.
    func refusal(_ write: LocalWrite, atomicGroup: String? = nil) -> String? {
        do {
            try self.write(write, atomicGroup: atomicGroup)
            return nil
        } catch {
            return error.code
        }
    }
}
