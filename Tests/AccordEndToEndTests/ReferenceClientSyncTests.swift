import AccordDriver
import Corpus
import Foundation
import HTTP
import JSON
import KizunaWire
import Lanes
import Testing

/// The reference client syncing for real: `accord serve` on loopback and three `accord driver`
/// processes (two devices of one user, one device of another) writing, conflicting, being
/// rejected, aborting an atomic batch and paginating, all through the driver protocol.
@Suite("The reference client against accord serve", .serialized)
struct ReferenceClientSyncTests {
    static let secret = "sync-e2e-secret"
    static let userA = "00000000-0000-4000-8000-a10000000001"
    static let userB = "00000000-0000-4000-8000-a10000000002"
    static let server = ServerConfig(synced: [TableConfig(table: "todos", bucketColumn: "owner_id")])

    /// One driver process: one device.
    actor Device {
        let channel: ProcessDriver
        let client: String
        var next = 1

        init(client: String) throws {
            self.client = client
            channel = try ProcessDriver(command: "'\(AccordBinary.path)' driver")
        }

        func call(_ body: DriverRequest.Body) async throws -> DriverResult {
            let request = DriverRequest(id: next, body)
            next += 1
            await channel.send(request.line, timeout: .seconds(10))
            guard case .line(let bytes) = await channel.nextLine(timeout: .seconds(10)) else {
                throw SyncFailure(code: "NO_ANSWER", detail: "\(body.op.rawValue): \(channel.stderrTail)")
            }
            let response = try DriverResponse(line: bytes, answering: body.op)
            if let result = response.result { return result }
            throw SyncFailure(code: response.failure?.code ?? "?", detail: response.failure?.message ?? "")
        }

        func open(user: String, port: Int, store: String) async throws {
            let jwt = JWTKey(secret: ReferenceClientSyncTests.secret).mint(JWTClaims(subject: user, sessionID: client))
            let open = OpenRequest(
                store: store, baseURL: "http://127.0.0.1:\(port)", apikey: "anon", jwt: jwt, clientID: client, userID: user,
                schemaVersion: 1, server: ReferenceClientSyncTests.server, pullLimit: 2)
            _ = try await call(.hello(protocolVersion: DriverRequest.protocolVersion))
            _ = try await call(.open(open))
        }

        func write(_ mutation: Mutation, group: String? = nil) async throws {
            _ = try await call(.write(WriteRequest(mutation: mutation, atomicGroup: group)))
        }

        func push() async throws -> PushResult {
            guard case .pushed(let result) = try await call(.push) else { throw SyncFailure(code: "SHAPE", detail: "push") }
            return result
        }

        func pull() async throws -> PullResult {
            guard case .pulled(let result) = try await call(.pull(PullOptions())) else { throw SyncFailure(code: "SHAPE", detail: "pull") }
            return result
        }

        func state() async throws -> StateResult {
            guard case .state(let result) = try await call(.state(StateOptions())) else {
                throw SyncFailure(code: "SHAPE", detail: "state")
            }
            return result
        }

        func close() async throws {
            _ = try await call(.close)
            _ = await channel.finish(timeout: .seconds(5))
        }
    }

    struct SyncFailure: Error, CustomStringConvertible {
        var code: String
        var detail: String
        var description: String { "\(code): \(detail)" }
    }

    static func key(_ n: Int) -> String { String(format: "00000000-0000-4000-8000-e100000000%02d", n) }
    static func id(_ n: Int) -> String { String(format: "00000000-0000-4000-8000-f100000000%02d", n) }

    static func insert(_ n: Int, key k: Int, owner: String, title: String) -> Mutation {
        Mutation(
            mutationID: id(n), table: "todos", pk: key(k), op: .insert,
            columns: ["id": .string(key(k)), "owner_id": .string(owner), "title": .string(title), "done": false])
    }

    static func update(_ n: Int, key k: Int, _ columns: JSONObject, precondition: JSONObject? = nil) -> Mutation {
        Mutation(mutationID: id(n), table: "todos", pk: key(k), op: .update, columns: columns, precondition: precondition)
    }

    @Test("two users, three devices: writes, conflicts, a rejection, an atomic abort and pagination converge")
    func converge() async throws {
        let served = try ServeEndToEndTests.Served(["--jwt-secret", Self.secret])
        defer { _ = served.stop() }
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let phone = try Device(client: "00000000-0000-4000-8000-c10000000001")
        let laptop = try Device(client: "00000000-0000-4000-8000-c10000000002")
        let other = try Device(client: "00000000-0000-4000-8000-c10000000003")
        try await phone.open(user: Self.userA, port: served.port, store: folder.appendingPathComponent("phone").path)
        try await laptop.open(user: Self.userA, port: served.port, store: folder.appendingPathComponent("laptop").path)
        try await other.open(user: Self.userB, port: served.port, store: folder.appendingPathComponent("other").path)

        // Writes, and a pull that pages (limit 2) through five rows.
        for n in 1...5 { try await phone.write(Self.insert(n, key: n, owner: Self.userA, title: "task \(n)")) }
        let pushed = try await phone.push()
        #expect(pushed.outcome == .sent && pushed.mutations == 5)
        let first = try await laptop.pull()
        #expect(first.outcome == .closed && first.pages == 3, "\(first)")
        #expect(try await laptop.state().rows["todos"]?.count == 5)

        // Conflicts: the same column (last arrival wins) and different columns (they merge).
        try await phone.write(Self.update(10, key: 1, ["title": "phone title"]))
        try await laptop.write(Self.update(11, key: 1, ["title": "laptop title"]))
        try await phone.write(Self.update(12, key: 2, ["title": "phone renamed"]))
        try await laptop.write(Self.update(13, key: 2, ["done": true]))
        _ = try await phone.push()
        _ = try await laptop.push()

        // A rejection: the phone's precondition no longer holds after the laptop's edit.
        try await laptop.write(Self.update(14, key: 3, ["title": "laptop took it"]))
        _ = try await laptop.push()
        try await phone.write(Self.update(15, key: 3, ["title": "phone took it"], precondition: ["title": "task 3"]))
        _ = try await phone.push()
        let phoneState = try await phone.state()
        #expect(phoneState.events.contains { $0.code == "MUTATION_REJECTED" && $0.mutationID == Self.id(15) })
        #expect(phoneState.journal.contains { $0.reason == "PRECONDITION" && $0.mutationID == Self.id(15) })
        #expect(phoneState.rows["todos"]?[Self.key(3)]?["title"] == "laptop took it")

        // An atomic abort: the insert rides with an update whose precondition fails; neither lands.
        try await phone.write(Self.insert(16, key: 6, owner: Self.userA, title: "only with its sibling"), group: "g1")
        try await phone.write(Self.update(17, key: 4, ["title": "claimed"], precondition: ["title": "stale"]), group: "g1")
        let atomic = try await phone.push()
        #expect(atomic.outcome == .sent && atomic.mutations == 2)
        let aborted = try await phone.state()
        #expect(aborted.events.contains { $0.code == "BATCH_ABORTED" })
        #expect(aborted.rows["todos"]?[Self.key(6)] == nil)
        #expect(aborted.rows["todos"]?[Self.key(4)]?["title"] == "task 4")

        // Another user: sees none of user A's rows, and an edit of one is refused (RLS_DENIED).
        let otherPull = try await other.pull()
        #expect(otherPull.outcome == .closed)
        #expect(try await other.state().rows["todos"]?.isEmpty == true)
        try await other.write(Self.update(18, key: 1, ["title": "not yours"]))
        _ = try await other.push()
        let otherState = try await other.state()
        #expect(otherState.journal.contains { $0.reason == "RLS_DENIED" && $0.mutationID == Self.id(18) })
        #expect(otherState.outboxDepth == 0)

        // Convergence: both devices of user A end with the same rows.
        _ = try await phone.pull()
        _ = try await laptop.pull()
        let phoneRows = try await phone.state().rows
        let laptopRows = try await laptop.state().rows
        #expect(phoneRows == laptopRows)
        #expect(phoneRows["todos"]?.count == 5)
        #expect(phoneRows["todos"]?[Self.key(1)]?["title"] == "laptop title")
        #expect(phoneRows["todos"]?[Self.key(2)]?["title"] == "phone renamed")
        #expect(phoneRows["todos"]?[Self.key(2)]?["done"] == true)
        #expect(phoneRows["todos"]?[Self.key(3)]?["title"] == "laptop took it")
        #expect(try await phone.state().outboxDepth == 0)
        for device in [phone, laptop, other] { try await device.close() }
    }
}
