import AccordDriver
import Corpus
import JSON
import KizunaWire
import Testing

@Suite("Driver messages round-trip")
struct RoundTripTests {
    static let requests: [DriverRequest] = [
        .hello(id: 1),
        .open(id: 2, Fixture.open),
        .open(
            id: 3,
            OpenRequest(
                store: "s", baseURL: "http://x", apikey: "", jwt: "", clientID: Fixture.client, userID: Fixture.user, schemaVersion: 2,
                server: ServerConfig(synced: [TableConfig(table: "todos", bucketColumn: "owner_id")]))),
        .write(id: 4, WriteRequest(mutation: Fixture.insert)),
        .write(
            id: 5,
            WriteRequest(
                mutation: Mutation(
                    mutationID: Fixture.mutation2, table: "todos", pk: Fixture.row1, op: .update, columns: ["title": "b"],
                    precondition: ["title": "a"], transforms: [("count", .increment(by: 2)), ("tags", .arrayUnion(["x"]))]),
                atomicGroup: "g1")),
        .push(id: 6),
        .pull(id: 7),
        .pull(id: 8, maxPages: 1),
        .state(id: 9),
        .state(id: 10, tables: ["todos", "notes"]),
        .close(id: 11),
    ]

    @Test("every request survives encode then decode", arguments: requests)
    func request(_ request: DriverRequest) throws {
        let line = request.line
        #expect(line.last == 0x0A)
        #expect(line.dropLast().contains(0x0A) == false)
        let decoded = try DriverRequest(line: Array(line.dropLast()))
        #expect(decoded == request)
        #expect(decoded.line == line)
    }

    @Test("a transcript's local step becomes a write request")
    func localWrite() throws {
        let step = try Step(
            json: try JSONParser.parse(
                """
                {"columns":{"title":"x"},"kind":"local","mutation_id":"\(Fixture.mutation1)","n":1,"op":"update",
                 "pk":"\(Fixture.row1)","table":"todos","transforms":{"n":{"by":1,"op":"increment"}}}
                """), at: .root)
        guard case .local(let write) = step.action else {
            Issue.record("not a local step")
            return
        }
        let request = DriverRequest.write(id: 1, WriteRequest(write, atomicGroup: "a"))
        #expect(
            Fixture.text(request)
                == #"{"atomic_group":"a","id":1,"mutation":{"columns":{"title":"x"},"mutation_id":"\#(Fixture.mutation1)","op":"update","pk":"\#(Fixture.row1)","table":"todos","transforms":{"n":{"by":1,"op":"increment"}}},"op":"write"}"#
                + "\n")
    }

    static let responses: [(DriverResponse, DriverOp)] = [
        (DriverResponse(id: 1, result: .hello(HelloResult(name: "toy", version: "1.0", capabilities: ["atomic", "kill-safe"]))), .hello),
        (DriverResponse(id: 2, result: .opened), .open),
        (DriverResponse(id: 3, result: .written(WriteResult(outboxDepth: 3))), .write),
        (DriverResponse(id: 4, result: .pushed(PushResult(outcome: .sent, mutations: 2))), .push),
        (DriverResponse(id: 5, result: .pushed(PushResult(outcome: .sent, mutations: 1, signal: .resetRequired))), .push),
        (DriverResponse(id: 6, result: .pushed(PushResult(outcome: .nothing))), .push),
        (DriverResponse(id: 7, result: .pushed(PushResult(outcome: .blocked))), .push),
        (DriverResponse(id: 8, result: .pulled(PullResult(outcome: .closed, cursor: "4", pages: 2))), .pull),
        (DriverResponse(id: 9, result: .pulled(PullResult(outcome: .staged, cursor: "0", pages: 1))), .pull),
        (DriverResponse(id: 10, result: .pulled(PullResult(outcome: .signal, cursor: "4", pages: 1, signal: .checkpointExpired))), .pull),
        (DriverResponse(id: 11, result: .pulled(PullResult(outcome: .blocked, cursor: "4", pages: 0))), .pull),
        (
            DriverResponse(
                id: 12,
                result: .state(
                    StateResult(
                        rows: ["todos": [Fixture.row1: ["done": true, "tags": ["a", 1]]], "notes": [:]], cursor: "4~2.3", outboxDepth: 1,
                        events: [
                            EngineEvent(code: "MUTATION_REJECTED", mutationID: Fixture.mutation1, data: ["reason": "PRECONDITION"]),
                            EngineEvent(code: "QUEUE_DEPTH"),
                        ],
                        journal: [
                            JournalEntry(table: "todos", pk: Fixture.row1, mutationID: Fixture.mutation1, reason: "PRECONDITION"),
                            JournalEntry(table: "todos", pk: Fixture.row1, reason: "BATCH_ABORTED", data: ["members": 2]),
                        ]))), .state
        ),
        (DriverResponse(id: 13, result: .closed), .close),
        (DriverResponse(id: 14, failure: DriverFailure(EngineError(.softDeleteViolation, "no"))), .write),
        (DriverResponse(id: nil, failure: DriverFailure(DriverError(.badJSON, at: .root, "bad"))), .hello),
        (
            DriverResponse(
                id: 15, failure: DriverFailure(DriverError(.unknownKey, at: JSONPointer(tokens: ["mutation", "colour"]), "unknown key"))),
            .write
        ),
    ]

    @Test("every response survives encode then decode", arguments: responses)
    func response(_ response: DriverResponse, _ op: DriverOp) throws {
        let line = response.line
        #expect(line.last == 0x0A)
        let decoded = try DriverResponse(line: Array(line.dropLast()), answering: op)
        #expect(decoded == response)
        #expect(decoded.line == line)
    }

    @Test("the documented example lines decode")
    func documentedLines() throws {
        let hello = try DriverRequest(line: Array(#"{"id":1,"op":"hello","protocol":"accord-driver/1"}"#.utf8))
        #expect(hello == .hello(id: 1))
        let answer = try DriverResponse(
            line: Array(
                #"{"id":1,"result":{"capabilities":["transforms","atomic"],"name":"toy","protocol":"accord-driver/1","version":"0.1.0"}}"#
                    .utf8),
            answering: .hello)
        #expect(answer.result == .hello(HelloResult(name: "toy", version: "0.1.0", capabilities: ["transforms", "atomic"])))
        let partial = try DriverResponse(
            line: Array(
                #"{"id":1,"result":{"capabilities":[],"name":"pull-only-python-fixture","parts":["pull","transport-error"],"protocol":"accord-driver/1","version":"1"}}"#
                    .utf8),
            answering: .hello)
        guard case .hello(let declared)? = partial.result else {
            Issue.record("a hello with parts decodes")
            return
        }
        #expect(declared.parts == ["pull", "transport-error"])
        #expect(
            partial.line == Array(
                #"{"id":1,"result":{"capabilities":[],"name":"pull-only-python-fixture","parts":["pull","transport-error"],"protocol":"accord-driver/1","version":"1"}}"#
                    .utf8) + [0x0A])
        let error = try DriverResponse(
            line: Array(#"{"error":{"code":"SOFT_DELETE_VIOLATION","message":"delete refused on notes"},"id":5}"#.utf8), answering: .write)
        #expect(error.failure?.code == "SOFT_DELETE_VIOLATION")
        #expect(error.failure?.isDriverCode == false)
    }

    @Test("response decoding is strict")
    func strictResponses() {
        let cases: [(String, DriverOp, String)] = [
            (#"{"id":1,"result":{}}"#, .write, ""),
            (#"{"id":1,"result":{"outbox_depth":1,"extra":1}}"#, .write, "/result/extra"),
            (#"{"id":1,"result":{"outbox_depth":-1}}"#, .write, "/result/outbox_depth"),
            (#"{"id":1}"#, .push, ""),
            (#"{"error":{"code":"X","message":"m"},"id":1,"result":{}}"#, .push, ""),
            (#"{"id":1,"result":{"mutations":0,"outcome":"maybe"}}"#, .push, "/result/outcome"),
            (#"{"id":1,"result":{"cursor":"4","outcome":"signal","pages":1}}"#, .pull, "/result/signal"),
            (#"{"error":{"code":"lower","message":"m"},"id":1}"#, .push, "/error/code"),
            (#"{"id":"1","result":{}}"#, .open, "/id"),
            (
                #"{"id":1,"result":{"capabilities":[],"name":"t","parts":["pull","sync"],"protocol":"accord-driver/1","version":"1"}}"#,
                .hello, "/result/parts/1"
            ),
            (
                #"{"id":1,"result":{"capabilities":[],"name":"t","parts":"pull","protocol":"accord-driver/1","version":"1"}}"#, .hello,
                "/result/parts"
            ),
        ]
        for (line, op, pointer) in cases {
            #expect(throws: DriverError.self, "\(line)") { try DriverResponse(line: Array(line.utf8), answering: op) }
            do {
                _ = try DriverResponse(line: Array(line.utf8), answering: op)
            } catch {
                #expect(error.kind == .badResponse, "\(line)")
                if !pointer.isEmpty { #expect(error.pointer.description == pointer, "\(line)") }
            }
        }
    }

    @Test("codes are namespaced")
    func codes() {
        #expect(DriverError.Kind.all.allSatisfy { $0.protocolCode.hasPrefix("DRIVER_") })
        #expect(Set(DriverError.Kind.all.map(\.protocolCode)).count == DriverError.Kind.all.count)
        #expect(EngineErrorCode(rawValue: "VERDICT_BIJECTION") == .verdictBijection)
        #expect(EngineErrorCode(rawValue: "DRIVER_BAD_JSON") == nil)
        #expect(EngineErrorCode(rawValue: "lower") == nil)
        let wire = WireError(.verdictBijection, at: JSONPointer(tokens: ["verdicts"]), "2 verdicts for 3 mutations")
        #expect(EngineError(wire).code == .verdictBijection)
    }
}
