import AccordDriver
import Corpus
import JSON
import KizunaWire
import Testing

@Suite("DriverLoop with a toy engine")
struct DriverLoopTests {
    @Test("hello, open, write, push, state, close over in-memory pipes, one request at a time")
    func session() async throws {
        let engine = ToyEngine()
        let requests = DriverPipe()
        let responses = DriverPipe()
        let loop = Task { await DriverLoop.run(engine: engine, input: requests.reader(), output: responses) }
        var answers = DriverLineReader(responses.reader())

        func exchange(_ request: DriverRequest) async throws -> DriverResponse {
            requests.send(request.line)
            guard case .line(let bytes) = await answers.next() else { throw DriverError(.badResponse, at: .root, "no answer") }
            let response = try DriverResponse(line: bytes, answering: request.body.op)
            #expect(response.id == request.id)
            return response
        }

        let hello = try await exchange(.hello(id: 1))
        #expect(hello.result == .hello(HelloResult(name: "toy", version: "0.1.0", capabilities: ["transforms", "atomic", "soft-delete"])))
        #expect(try await exchange(.open(id: 2, Fixture.open)).result == .opened)
        #expect(try await exchange(.write(id: 3, WriteRequest(mutation: Fixture.insert))).result == .written(WriteResult(outboxDepth: 1)))

        let refused = try await exchange(
            .write(
                id: 4,
                WriteRequest(
                    mutation: Mutation(
                        mutationID: Fixture.mutation2, table: "notes", pk: #"["u","s"]"#, op: .delete, columns: [:]))))
        #expect(refused.failure == DriverFailure(code: "SOFT_DELETE_VIOLATION", message: "delete refused on notes"))

        let state = try await exchange(.state(id: 5, tables: ["todos"]))
        guard case .state(let snapshot) = state.result else {
            Issue.record("no state: \(state)")
            return
        }
        #expect(snapshot.outboxDepth == 1)
        #expect(snapshot.cursor == "4")
        #expect(snapshot.row("todos", Fixture.row1) == Fixture.insert.columns)
        #expect(snapshot.rows.keys.sorted() == ["todos"])
        #expect(snapshot.events.map(\.code) == ["LOCAL_CHANGED"])

        #expect(try await exchange(.push(id: 6)).result == .pushed(PushResult(outcome: .sent, mutations: 1)))
        #expect(try await exchange(.push(id: 7)).result == .pushed(PushResult(outcome: .nothing)))
        #expect(try await exchange(.pull(id: 8, maxPages: 1)).result == .pulled(PullResult(outcome: .closed, cursor: "4", pages: 1)))
        let after = try await exchange(.state(id: 9))
        if case .state(let snapshot) = after.result {
            #expect(snapshot.outboxDepth == 0)
            #expect(snapshot.rows.keys.sorted() == ["notes", "todos"])
        } else {
            Issue.record("no state: \(after)")
        }
        #expect(try await exchange(.close(id: 10)).result == .closed)
        #expect(await loop.value == .closed)
        #expect(await engine.closes == 1)
        requests.finish()
    }

    @Test("engine errors carry their catalog codes; wire errors their protocol codes; others DRIVER_ENGINE_FAILURE")
    func engineErrors() async {
        struct Oops: Error {}
        let cases: [(any Error, String)] = [
            (EngineError(.remote, "transport error"), "REMOTE"),
            (WireError(.verdictBijection, at: JSONPointer(tokens: ["verdicts"]), "1 verdict for 2"), "VERDICT_BIJECTION"),
            (WireError(.unknownSignal, at: JSONPointer(tokens: ["signal", "type"]), "x"), "UNKNOWN_SIGNAL"),
            (Oops(), "DRIVER_ENGINE_FAILURE"),
        ]
        for (error, code) in cases {
            let engine = ToyEngine()
            await engine.setPushFailure(error)
            let session = await runSession(
                [Fixture.text(.hello(id: 1)), Fixture.text(.open(id: 2, Fixture.open)), Fixture.text(.push(id: 3))].joined(), engine: engine
            )
            #expect(session.lines.count == 3)
            #expect(session.lines.last.flatMap(errorCode) == code)
            #expect(session.ending == .endOfInput)
        }
    }

    @Test("requests out of sequence are refused with DRIVER_SEQUENCE and change nothing")
    func sequence() async {
        let engine = ToyEngine()
        let input = [
            Fixture.text(.push(id: 1)),  // before hello
            #"{"id":2,"op":"hello","protocol":"accord-driver/2"}"# + "\n",  // wrong version
            Fixture.text(.hello(id: 3)),
            Fixture.text(.hello(id: 4)),  // twice
            Fixture.text(.write(id: 5, WriteRequest(mutation: Fixture.insert))),  // before open
            Fixture.text(.open(id: 6, Fixture.open)),
            Fixture.text(.open(id: 7, Fixture.open)),  // twice
            Fixture.text(.close(id: 8)),
            Fixture.text(.state(id: 9)),  // never read: the loop stopped
        ].joined()
        let session = await runSession(input, engine: engine)
        #expect(session.ending == .closed)
        #expect(session.lines.count == 8)
        let codes = session.lines.map { errorCode($0) ?? "ok" }
        #expect(
            codes == [
                "DRIVER_SEQUENCE", "DRIVER_PROTOCOL_VERSION", "ok", "DRIVER_SEQUENCE", "DRIVER_SEQUENCE", "ok", "DRIVER_SEQUENCE", "ok",
            ])
        #expect(session.lines.map { parsed($0)["id"] } == (1...8).map { .number(JSONNumber($0)) })
        #expect(await engine.closes == 1)
    }

    @Test("writes and opens needing an unannounced capability are DRIVER_UNSUPPORTED")
    func capabilities() async {
        let engine = ToyEngine(capabilities: [])
        let transformWrite = WriteRequest(
            mutation: Mutation(
                mutationID: Fixture.mutation2, table: "todos", pk: Fixture.row1, op: .update, columns: [:],
                transforms: [("n", .increment(by: 1))]))
        let plainOpen = OpenRequest(
            store: "s", baseURL: "u", apikey: "a", jwt: "j", clientID: Fixture.client, userID: Fixture.user, schemaVersion: 1,
            server: ServerConfig(synced: [TableConfig(table: "todos", bucketColumn: "owner_id")]))
        let input = [
            Fixture.text(.hello(id: 1)),
            Fixture.text(.open(id: 2, Fixture.open)),  // notes has soft_delete_column
            Fixture.text(.open(id: 3, plainOpen)),
            Fixture.text(.write(id: 4, transformWrite)),
            Fixture.text(.write(id: 5, WriteRequest(mutation: Fixture.insert, atomicGroup: "g"))),
            Fixture.text(.write(id: 6, WriteRequest(mutation: Fixture.insert))),
        ].joined()
        let session = await runSession(input, engine: engine)
        #expect(
            session.lines.map { errorCode($0) ?? "ok" } == [
                "ok", "DRIVER_UNSUPPORTED", "ok", "DRIVER_UNSUPPORTED", "DRIVER_UNSUPPORTED", "ok",
            ])
        #expect(
            session.lines.map { errorPointer($0) ?? "" } == [
                "", "/server/tables/notes/soft_delete_column", "", "/mutation/transforms", "/atomic_group", "",
            ])
    }

    @Test("a failed open leaves the store closed")
    func failedOpen() async {
        var refused = Fixture.open
        refused.store = "/refuse"
        let session = await runSession(
            [
                Fixture.text(.hello(id: 1)), Fixture.text(.open(id: 2, refused)), Fixture.text(.push(id: 3)),
                Fixture.text(.open(id: 4, Fixture.open)),
            ]
            .joined(), engine: ToyEngine())
        #expect(session.lines.map { errorCode($0) ?? "ok" } == ["ok", "CONFIG_INVALID", "DRIVER_SEQUENCE", "ok"])
    }
}

@Suite("End of input")
struct EndOfInputTests {
    @Test("EOF without close closes an open engine and ends the loop")
    func eofClosesEngine() async {
        let engine = ToyEngine()
        let session = await runSession(
            [
                Fixture.text(.hello(id: 1)), Fixture.text(.open(id: 2, Fixture.open)),
                Fixture.text(.write(id: 3, WriteRequest(mutation: Fixture.insert))),
            ]
            .joined(), engine: engine)
        #expect(session.ending == .endOfInput)
        #expect(session.lines.count == 3)
        #expect(await engine.closes == 1)
    }

    @Test("EOF before anything ends quietly")
    func emptyInput() async {
        let engine = ToyEngine()
        let session = await runSession("", engine: engine)
        #expect(session.ending == .endOfInput)
        #expect(session.lines.isEmpty)
        #expect(await engine.closes == 0)
    }

    @Test("a last line without its newline is still answered; CRLF and blank lines are tolerated")
    func unterminatedLastLine() async {
        let engine = ToyEngine()
        let input = #"{"id":1,"op":"hello","protocol":"accord-driver/1"}"# + "\r\n\n  \n" + #"{"id":2,"op":"close"}"#
        let session = await runSession(input, engine: engine)
        #expect(session.ending == .closed)
        #expect(session.lines.count == 2)
        #expect(session.lines.last.map(parsed) == ["id": 2, "result": [:]])
    }

    @Test("EOF in the middle of a line answers the fragment as bad JSON")
    func truncatedLine() async {
        let session = await runSession(#"{"id":1,"op":"hel"#, engine: ToyEngine())
        #expect(session.ending == .endOfInput)
        #expect(session.lines.map { errorCode($0) ?? "ok" } == ["DRIVER_BAD_JSON"])
    }

    @Test("the loop stops when the output fails, closing the engine")
    func outputFailure() async {
        struct Broken: DriverOutput {
            struct Gone: Error {}
            func write(_ bytes: [UInt8]) async throws { throw Gone() }
        }
        let engine = ToyEngine()
        let requests = DriverPipe()
        requests.send(Fixture.text(.hello(id: 1)).utf8.map { $0 })
        requests.finish()
        #expect(await DriverLoop.run(engine: engine, input: requests.reader(), output: Broken()) == .outputFailed)
        #expect(await engine.closes == 0)
    }
}
