import JSON
import Testing

@testable import KizunaWire

private func requestError(_ value: JSONValue) -> WireError? { wireError { try PushRequest(json: value) } }
private func responseError(_ value: JSONValue) -> WireError? { wireError { try PushResponse(json: value) } }

/// Push steps with a known shape.
private enum Sample {
    /// Non-atomic, two mutations, verdicts [rejected RLS_DENIED (server_row null), applied].
    static let verdicts = ("transcripts/push/002-rls-denied-not-a-wedge.json", 7)
    /// Atomic, two mutations, aborted on the second (PRECONDITION).
    static let aborted = ("transcripts/push/005-atomic-batch-revert.json", 7)
    /// RESET_REQUIRED signal.
    static let signal = ("transcripts/lifecycle/003-push-stale-schema.json", 3)
    /// An increment transform, applied with a server_row.
    static let increment = ("transcripts/increment/004-server-row.json", 4)
    /// An hlc-stamped update, rejected SUPERSEDED with a server_row.
    static let hlc = ("transcripts/conflict/003-hlc-origin-order.json", 6)
}

private func step(_ sample: (String, Int)) throws -> Corpus.RPCStep { try rpcStep(sample.0, sample.1) }

private func mutation(_ id: String, op: MutationOp = .update) -> Mutation {
    Mutation(mutationID: id, table: "todos", pk: "p-" + id, op: op, columns: ["title": "x"])
}

private func makeRequest(_ ids: [String], atomic: Bool = false) -> PushRequest {
    PushRequest(atomic: atomic, mutations: ids.map { mutation($0) }, lastMutationID: nil, schemaVersion: 1)
}

@Suite("Push messages")
struct PushMessagesTests {
    static let pushSteps = Corpus.allRPCSteps.filter { $0.rpc == "push" }

    @Test("the corpus has push steps of every arm")
    func corpusHasPushes() {
        #expect(Self.pushSteps.count >= 25)
        #expect(Self.pushSteps.contains { $0.response["verdicts"] != nil })
        #expect(Self.pushSteps.contains { $0.response["batch"] != nil })
        #expect(Self.pushSteps.contains { $0.response["signal"] != nil })
    }

    @Test("every transcript push decodes, re-renders canonically equal, and answers its request", arguments: pushSteps)
    func transcriptPushRoundTrips(_ step: Corpus.RPCStep) throws {
        let request = try PushRequest(json: step.request)
        #expect(CanonicalJSON.render(request.json) == CanonicalJSON.render(step.request))
        let response = try PushResponse(json: step.response)
        #expect(CanonicalJSON.render(response.json) == CanonicalJSON.render(step.response))
        #expect(response.violations(answering: request).isEmpty)
        #expect(throws: Never.self) { try response.validate(answering: request) }
        #expect(try PushRequest(bytes: CanonicalJSON.render(step.request)) == request)
        #expect(try PushResponse(bytes: CanonicalJSON.render(step.response)) == response)
    }

    @Test("decodes requests")
    func decodesRequests() throws {
        let request = try PushRequest(json: try step(Sample.verdicts).request)
        #expect(!request.atomic)
        #expect(request.lastMutationID == nil)
        #expect(request.schemaVersion == 1)
        #expect(request.clientID == "00000000-0000-4000-8000-c10000000001")
        #expect(request.mutations.map(\.op) == [.update, .insert])
        #expect(request.mutations.first?.columns["title"] == "my stale edit")
        #expect(request.mutations.first?.precondition == nil)

        let atomic = try PushRequest(json: try step(Sample.aborted).request)
        #expect(atomic.atomic)
        #expect(atomic.mutations[1].precondition == ["title": "unclaimed"])

        let increment = try PushRequest(json: try step(Sample.increment).request)
        let transform = try #require(increment.mutations.first?.transforms.first)
        #expect(transform.column == "likes")
        #expect(transform.transform == .increment(by: 1))

        let hlc = try PushRequest(json: try step(Sample.hlc).request)
        #expect(hlc.mutations.first?.hlc == "2026-01-01T00:00:02.000Z|0|00000000-0000-4000-8000-c10000000001")
    }

    @Test("decodes each response arm")
    func decodesResponses() throws {
        guard case .verdicts(let verdicts) = try PushResponse(json: try step(Sample.verdicts).response) else {
            Issue.record("expected verdicts")
            return
        }
        #expect(verdicts.map(\.kind) == [.rejected, .applied])
        #expect(verdicts.first == .rejected(mutationID: "00000000-0000-4000-8000-f10000000002", reason: .rlsDenied, serverRow: nil))
        #expect(verdicts.last == .applied(mutationID: "00000000-0000-4000-8000-f10000000003", serverRow: nil))

        guard case .aborted(let abort) = try PushResponse(json: try step(Sample.aborted).response) else {
            Issue.record("expected an abort")
            return
        }
        #expect(abort.offenderMutationID == "00000000-0000-4000-8000-f10000000002")
        #expect(abort.reason == .precondition)
        #expect(abort.serverRow?["title"] == "claimed by device-b")

        #expect(try PushResponse(json: try step(Sample.signal).response) == .signal(.resetRequired))

        guard case .verdicts(let applied) = try PushResponse(json: try step(Sample.increment).response) else {
            Issue.record("expected verdicts")
            return
        }
        guard case .applied(_, let row) = applied.first else {
            Issue.record("expected applied")
            return
        }
        #expect(row?["likes"] == 1)
    }

    @Test("mutations keep transforms in order, base_hint verbatim, and read back")
    func mutationRoundTrip() throws {
        var made = Mutation(
            mutationID: "00000000-0000-4000-8000-f10000000001", table: "todos", pk: "p", op: .update, columns: ["title": "t"],
            precondition: ["done": false],
            transforms: [
                ("zeta", .increment(by: "-92233720368547758080")), ("alpha", .arrayUnion(["a", 1, true])),
                ("mid", .arrayRemove(["b"])),
            ],
            hlc: "2026-01-01T00:00:01.000Z|3|node")
        made.baseHint = ["anything": [1, nil, ["x": "y"]]]
        let value = made.json
        #expect(value["transforms"]?.objectValue?.keys == ["zeta", "alpha", "mid"])
        let read = try Mutation(json: value, at: .root, malformed: .malformedRequest)
        #expect(read == made)
        #expect(read.baseHint == made.baseHint)
        #expect(read.transforms.map(\.column) == ["zeta", "alpha", "mid"])
        #expect(Set([read, made]).count == 1)
        let pushed = PushRequest(
            atomic: true, mutations: [made], lastMutationID: "00000000-0000-4000-8000-f10000000000", schemaVersion: 3,
            clientID: "00000000-0000-4000-8000-c10000000001")
        let back = try PushRequest(json: pushed.json)
        #expect(back == pushed)
        #expect(back.json["last_mutation_id"] == "00000000-0000-4000-8000-f10000000000")
        #expect(CanonicalJSON.render(back.json) == CanonicalJSON.render(pushed.json))
    }

    @Test("responses built in code read back")
    func responseRoundTrip() throws {
        let responses: [PushResponse] = [
            .verdicts([]),
            .verdicts([
                .applied(mutationID: "00000000-0000-4000-8000-f10000000001", serverRow: ["n": 2]),
                .rejected(mutationID: "00000000-0000-4000-8000-f10000000002", reason: .deleteWins, serverRow: nil),
                .rejected(mutationID: "00000000-0000-4000-8000-f10000000003", reason: .columnDenied, serverRow: ["x": "y"]),
            ]),
            .aborted(BatchAbort(offenderMutationID: "00000000-0000-4000-8000-f10000000002", reason: .constraint, serverRow: nil)),
            .aborted(
                BatchAbort(offenderMutationID: "00000000-0000-4000-8000-f10000000002", reason: .superseded, serverRow: ["k": [1, 2]])),
            .signal(.resetRequired),
        ]
        for response in responses {
            #expect(try PushResponse(json: response.json) == response)
        }
        #expect(
            CanonicalJSON.compact(
                PushResponse.aborted(
                    BatchAbort(offenderMutationID: "00000000-0000-4000-8000-f10000000002", reason: .rlsDenied, serverRow: nil)
                ).json)
                == "{\"batch\":{\"offender_mutation_id\":\"00000000-0000-4000-8000-f10000000002\",\"outcome\":\"aborted\",\"reason\":\"RLS_DENIED\",\"server_row\":null}}"
        )
    }

    @Test("the closed sets hold exactly the protocol's literals")
    func closedSets() {
        #expect(MutationOp.allCases.map(\.rawValue) == ["insert", "update", "delete"])
        #expect(
            Set(RejectionReason.allCases.map(\.rawValue))
                == ["PRECONDITION", "RLS_DENIED", "COLUMN_DENIED", "CONSTRAINT", "DELETE_WINS", "SUPERSEDED"])
        #expect(Set(SignalType.allCases.map(\.rawValue)) == ["CHECKPOINT_EXPIRED", "RESET_REQUIRED"])
        #expect(VerdictKind.allCases.map(\.rawValue) == ["applied", "rejected"])
    }

    @Test("the closed sets agree with the shared schema enums")
    func closedSetsMatchSchemas() throws {
        let common = try Corpus.value("schemas/common.schema.json")
        let reasons = common.value(at: JSONPointer("/$defs/verdict/oneOf/1/properties/reason/enum")!)?.arrayValue?.compactMap(\.stringValue)
        #expect(Set(try #require(reasons)) == Set(RejectionReason.allCases.map(\.rawValue)))
        let ops = common.value(at: JSONPointer("/$defs/mutation/properties/op/enum")!)?.arrayValue?.compactMap(\.stringValue)
        #expect(Set(try #require(ops)) == Set(MutationOp.allCases.map(\.rawValue)))
        let signals = common.value(at: JSONPointer("/$defs/signal/oneOf/1/properties/type/enum")!)?.arrayValue?.compactMap(\.stringValue)
        #expect(Set(try #require(signals)) == Set(SignalType.allCases.map(\.rawValue)))
    }

    // MARK: - requests that break the schema

    @Test("an unknown key in a push request names its pointer")
    func requestUnknownKey() throws {
        let value = try step(Sample.verdicts).request
        let cases: [(JSONValue, String)] = [
            (value.setting("/extra", to: 1), "/extra"),
            (value.setting("/batch/extra", to: 1), "/batch/extra"),
            (value.setting("/batch/mutations/1/extra", to: 1), "/batch/mutations/1/extra"),
            (
                try step(Sample.increment).request.setting("/batch/mutations/0/transforms/likes/extra", to: 1),
                "/batch/mutations/0/transforms/likes/extra"
            ),
        ]
        for (broken, pointer) in cases {
            let error = try #require(requestError(broken), "\(pointer)")
            #expect(error.kind == .malformedRequest)
            #expect(error.protocolCode == "JSON")
            #expect(error.pointer.description == pointer)
            #expect(error.detail.contains("unknown key"))
        }
    }

    @Test("an unknown op is .unknownOp at the op")
    func requestUnknownOp() throws {
        let value = try step(Sample.verdicts).request
        for op in ["upsert", "UPDATE", "", "remove"] {
            let error = try #require(requestError(value.setting("/batch/mutations/1/op", to: .string(op))))
            #expect(error.kind == .unknownOp)
            #expect(error.protocolCode == "UNKNOWN_OP")
            #expect(error.pointer.description == "/batch/mutations/1/op")
        }
        let numeric = try #require(requestError(value.setting("/batch/mutations/1/op", to: 1)))
        #expect(numeric.kind == .malformedRequest)
        #expect(numeric.pointer.description == "/batch/mutations/1/op")
    }

    @Test(
        "push request shape errors",
        arguments: [
            ("/batch", nil, "", "missing required key \"batch\""),
            ("/last_mutation_id", nil, "", "missing required key \"last_mutation_id\""),
            ("/last_mutation_id", 5, "/last_mutation_id", "a string or null"),
            ("/schema_version", nil, "", "missing required key \"schema_version\""),
            ("/schema_version", "1", "/schema_version", "an integer"),
            ("/client_id", false, "/client_id", "a string"),
            ("/batch", [], "/batch", "an object"),
            ("/batch/atomic", nil, "/batch", "missing required key \"atomic\""),
            ("/batch/atomic", "false", "/batch/atomic", "a boolean"),
            ("/batch/mutations", nil, "/batch", "missing required key \"mutations\""),
            ("/batch/mutations", [:], "/batch/mutations", "an array"),
            ("/batch/mutations/0", "m", "/batch/mutations/0", "an object"),
            ("/batch/mutations/0/mutation_id", nil, "/batch/mutations/0", "missing required key \"mutation_id\""),
            ("/batch/mutations/0/mutation_id", 7, "/batch/mutations/0/mutation_id", "a string"),
            ("/batch/mutations/0/table", nil, "/batch/mutations/0", "missing required key \"table\""),
            ("/batch/mutations/0/pk", 1, "/batch/mutations/0/pk", "a string"),
            ("/batch/mutations/0/columns", nil, "/batch/mutations/0", "missing required key \"columns\""),
            ("/batch/mutations/0/columns", .null, "/batch/mutations/0/columns", "column values"),
            ("/batch/mutations/0/columns/title", ["a": 1], "/batch/mutations/0/columns/title", "scalar"),
            ("/batch/mutations/0/precondition", .null, "/batch/mutations/0/precondition", "column values"),
            (
                "/batch/mutations/0/precondition", ["n": .number(JSONNumber(literal: "1e3"))], "/batch/mutations/0/precondition/n",
                "integers"
            ),
            ("/batch/mutations/0/hlc", 1, "/batch/mutations/0/hlc", "a string"),
            ("/batch/mutations/1/transforms", ["likes": ["by": 1, "op": "increment"]], "/batch/mutations/1/transforms", "update only"),
            (
                "/batch/mutations/0/transforms", ["title": ["by": 1, "op": "increment"]], "/batch/mutations/0/transforms/title",
                "both columns and transforms"
            ),
            (
                "/batch/mutations/0/transforms", ["n": ["by": 1, "op": "multiply"]], "/batch/mutations/0/transforms/n/op",
                "unknown transform op"
            ),
            ("/batch/mutations/0/transforms", ["n": ["by": 1]], "/batch/mutations/0/transforms/n", "missing required key \"op\""),
            (
                "/batch/mutations/0/transforms", ["n": ["by": "1.5", "op": "increment"]], "/batch/mutations/0/transforms/n/by",
                "increment.by"
            ),
            (
                "/batch/mutations/0/transforms", ["n": ["by": "01", "op": "increment"]], "/batch/mutations/0/transforms/n/by",
                "increment.by"
            ),
            (
                "/batch/mutations/0/transforms", ["n": ["by": .number(JSONNumber(literal: "1.0")), "op": "increment"]],
                "/batch/mutations/0/transforms/n/by", "increment.by"
            ),
            ("/batch/mutations/0/transforms", ["n": ["by": nil, "op": "increment"]], "/batch/mutations/0/transforms/n/by", "increment.by"),
            (
                "/batch/mutations/0/transforms", ["n": ["op": "arrayUnion", "values": []]], "/batch/mutations/0/transforms/n/values",
                "at least one"
            ),
            (
                "/batch/mutations/0/transforms", ["n": ["op": "arrayRemove", "values": "x"]], "/batch/mutations/0/transforms/n/values",
                "an array"
            ),
            (
                "/batch/mutations/0/transforms", ["n": ["op": "arrayUnion", "values": ["x"], "by": 1]],
                "/batch/mutations/0/transforms/n/by", "unknown key"
            ),
            ("/batch/mutations/0/transforms", [], "/batch/mutations/0/transforms", "an object"),
        ] as [(String, JSONValue?, String, String)])
    func requestShapeErrors(_ target: String, _ replacement: JSONValue?, _ pointer: String, _ detail: String) throws {
        let value = try step(Sample.verdicts).request.setting(target, to: replacement)
        let error = try #require(requestError(value), "\(target)")
        #expect(error.kind == .malformedRequest)
        #expect(error.pointer.description == pointer)
        #expect(error.detail.contains(detail), "\(error)")
    }

    @Test("increment.by takes integers and decimal strings of any size")
    func incrementBy() throws {
        let value = try step(Sample.verdicts).request
        for by: JSONValue in [
            1, -1, 0, "-92233720368547758080", "0", "123456789012345678901234567890", .number(JSONNumber(literal: "9007199254740993")),
        ] {
            let broken = value.setting("/batch/mutations/0/transforms", to: ["n": ["by": by, "op": "increment"]])
            let read = try PushRequest(json: broken)
            #expect(read.mutations[0].transforms.first?.transform == .increment(by: by))
            #expect(CanonicalJSON.render(read.json) == CanonicalJSON.render(broken))
        }
    }

    // MARK: - responses that break the schema

    @Test("an unknown key in a push response names its pointer")
    func responseUnknownKey() throws {
        let verdicts = try step(Sample.verdicts).response
        let aborted = try step(Sample.aborted).response
        let signal = try step(Sample.signal).response
        let cases: [(JSONValue, String)] = [
            (verdicts.setting("/extra", to: 1), "/extra"),
            (verdicts.setting("/verdicts/0/extra", to: 1), "/verdicts/0/extra"),
            (verdicts.setting("/verdicts/1/extra", to: 1), "/verdicts/1/extra"),
            (aborted.setting("/batch/extra", to: 1), "/batch/extra"),
            (aborted.setting("/extra", to: 1), "/extra"),
            (signal.setting("/signal/extra", to: 1), "/signal/extra"),
            // a reason on an applied verdict is an unknown key there
            (verdicts.setting("/verdicts/1/reason", to: "CONSTRAINT"), "/verdicts/1/reason"),
        ]
        for (broken, pointer) in cases {
            let error = try #require(responseError(broken), "\(pointer)")
            #expect(error.kind == .malformedPushResponse)
            #expect(error.protocolCode == "MALFORMED_PUSH_RESPONSE")
            #expect(error.pointer.description == pointer)
        }
    }

    @Test("an unknown rejection reason is .unknownVerdictReason")
    func responseUnknownReason() throws {
        let verdicts = try step(Sample.verdicts).response
        let aborted = try step(Sample.aborted).response
        let cases: [(JSONValue, String)] = [
            (verdicts.setting("/verdicts/0/reason", to: "RATE_LIMITED"), "/verdicts/0/reason"),
            (verdicts.setting("/verdicts/0/reason", to: "rls_denied"), "/verdicts/0/reason"),
            (aborted.setting("/batch/reason", to: "TIMEOUT"), "/batch/reason"),
        ]
        for (broken, pointer) in cases {
            let error = try #require(responseError(broken), "\(pointer)")
            #expect(error.kind == .unknownVerdictReason)
            #expect(error.protocolCode == "UNKNOWN_VERDICT_REASON")
            #expect(error.pointer.description == pointer)
        }
        let numeric = try #require(responseError(verdicts.setting("/verdicts/0/reason", to: 3)))
        #expect(numeric.kind == .malformedPushResponse)
        let missing = try #require(responseError(verdicts.setting("/verdicts/0/reason", to: nil)))
        #expect(missing.kind == .malformedPushResponse)
        #expect(missing.pointer.description == "/verdicts/0")
    }

    @Test("an unknown verdict kind is .unknownVerdictKind")
    func responseUnknownVerdictKind() throws {
        let verdicts = try step(Sample.verdicts).response
        for kind in ["accepted", "APPLIED", "skipped", ""] {
            let error = try #require(responseError(verdicts.setting("/verdicts/1/verdict", to: .string(kind))))
            #expect(error.kind == .unknownVerdictKind)
            #expect(error.protocolCode == "MALFORMED_PUSH_RESPONSE")
            #expect(error.pointer.description == "/verdicts/1/verdict")
        }
        let missing = try #require(responseError(verdicts.setting("/verdicts/1/verdict", to: nil)))
        #expect(missing.kind == .malformedPushResponse)
    }

    @Test("an unknown signal is .unknownSignal")
    func responseUnknownSignal() throws {
        let signal = try step(Sample.signal).response
        for type in ["RESET", "reset_required", "STOP"] {
            let error = try #require(responseError(signal.setting("/signal/type", to: .string(type))))
            #expect(error.kind == .unknownSignal)
            #expect(error.protocolCode == "UNKNOWN_SIGNAL")
            #expect(error.pointer.description == "/signal/type")
        }
        let null = try #require(responseError(["signal": nil]))
        #expect(null.kind == .malformedPushResponse)
        #expect(null.pointer.description == "/signal")
    }

    @Test("a push response has exactly one arm")
    func responseArms() throws {
        let verdicts = try step(Sample.verdicts).response
        let aborted = try step(Sample.aborted).response
        let signal = try step(Sample.signal).response
        let twoArms: [JSONValue] = [
            verdicts.setting("/signal", to: signal["signal"]),
            verdicts.setting("/batch", to: aborted["batch"]),
            aborted.setting("/signal", to: signal["signal"]),
            verdicts.setting("/batch", to: aborted["batch"]).setting("/signal", to: signal["signal"]),
        ]
        for broken in twoArms {
            let error = try #require(responseError(broken))
            #expect(error.kind == .malformedPushResponse)
            #expect(error.pointer == .root)
            #expect(error.detail.contains("exactly one arm"))
        }
        let none = try #require(responseError([:]))
        #expect(none.kind == .malformedPushResponse)
        #expect(none.pointer == .root)
        let other = try #require(responseError(["errors": []]))
        #expect(other.kind == .malformedPushResponse)
        let array = try #require(responseError([]))
        #expect(array.kind == .malformedPushResponse)
    }

    @Test(
        "push response shape errors",
        arguments: [
            (Sample.verdicts, "/verdicts", [:], "/verdicts", "an array"),
            (Sample.verdicts, "/verdicts/0", "x", "/verdicts/0", "an object"),
            (Sample.verdicts, "/verdicts/0/mutation_id", nil, "/verdicts/0", "missing required key \"mutation_id\""),
            (Sample.verdicts, "/verdicts/0/mutation_id", 1, "/verdicts/0/mutation_id", "a string"),
            (Sample.verdicts, "/verdicts/0/server_row", nil, "/verdicts/0", "missing required key \"server_row\""),
            (Sample.verdicts, "/verdicts/0/server_row", [], "/verdicts/0/server_row", "column values"),
            (Sample.verdicts, "/verdicts/1/server_row", .null, "/verdicts/1/server_row", "column values"),
            (Sample.verdicts, "/verdicts/1/server_row", ["n": .number(JSONNumber(literal: "0.5"))], "/verdicts/1/server_row/n", "integers"),
            (Sample.aborted, "/batch", [], "/batch", "an object"),
            (Sample.aborted, "/batch/outcome", "committed", "/batch/outcome", "must be \"aborted\""),
            (Sample.aborted, "/batch/outcome", nil, "/batch", "missing required key \"outcome\""),
            (Sample.aborted, "/batch/offender_mutation_id", nil, "/batch", "missing required key \"offender_mutation_id\""),
            (Sample.aborted, "/batch/server_row", nil, "/batch", "missing required key \"server_row\""),
            (Sample.aborted, "/batch/server_row", "row", "/batch/server_row", "column values"),
            (Sample.signal, "/signal", "RESET_REQUIRED", "/signal", "an object"),
            (Sample.signal, "/signal/type", nil, "/signal", "missing required key \"type\""),
        ] as [((String, Int), String, JSONValue?, String, String)])
    func responseShapeErrors(_ sample: (String, Int), _ target: String, _ replacement: JSONValue?, _ pointer: String, _ detail: String)
        throws
    {
        let value = try step(sample).response.setting(target, to: replacement)
        let error = try #require(responseError(value), "\(target)")
        #expect(error.kind == .malformedPushResponse)
        #expect(error.pointer.description == pointer)
        #expect(error.detail.contains(detail), "\(error)")
    }

    @Test("bytes that are not JSON are kind .json")
    func notJSON() {
        #expect(wireError { try PushResponse(bytes: Array("{\"verdicts\": [}".utf8)) }?.kind == .json)
        #expect(wireError { try PushRequest(bytes: [0xFF]) }?.kind == .json)
    }

    // MARK: - answering the request

    @Test("a well-formed answer has no violations")
    func answerIsValid() throws {
        let request = try PushRequest(json: try step(Sample.verdicts).request)
        let response = try PushResponse(json: try step(Sample.verdicts).response)
        #expect(response.violations(answering: request).isEmpty)
        let atomic = try PushRequest(json: try step(Sample.aborted).request)
        #expect(try PushResponse(json: try step(Sample.aborted).response).violations(answering: atomic).isEmpty)
        #expect(PushResponse.signal(.resetRequired).violations(answering: atomic).isEmpty)
        #expect(PushResponse.verdicts([]).violations(answering: makeRequest([])).isEmpty)
    }

    @Test("a dropped verdict breaks the bijection")
    func droppedVerdict() throws {
        let request = try PushRequest(json: try step(Sample.verdicts).request)
        guard case .verdicts(let verdicts) = try PushResponse(json: try step(Sample.verdicts).response) else {
            Issue.record("expected verdicts")
            return
        }
        let dropLast = PushResponse.verdicts(Array(verdicts.prefix(1))).violations(answering: request)
        #expect(dropLast.count == 1)
        #expect(dropLast.first?.kind == .verdictBijection)
        #expect(dropLast.first?.pointer.description == "/verdicts")
        #expect(dropLast.first?.error.protocolCode == "VERDICT_BIJECTION")

        let dropFirst = PushResponse.verdicts(Array(verdicts.suffix(1))).violations(answering: request)
        #expect(dropFirst.map(\.kind) == [.verdictBijection, .verdictBijection])
        #expect(dropFirst.map(\.pointer.description) == ["/verdicts", "/verdicts/0/mutation_id"])

        let none = PushResponse.verdicts([]).violations(answering: request)
        #expect(none.map(\.pointer.description) == ["/verdicts"])

        let extra = PushResponse.verdicts(verdicts + [.applied(mutationID: "extra", serverRow: nil)]).violations(answering: request)
        #expect(extra.map(\.pointer.description) == ["/verdicts"])
        #expect(extra.first?.detail.contains("expected 2 verdicts") == true)
    }

    @Test("reordered verdicts break the bijection at each position")
    func reorderedVerdicts() throws {
        let request = try PushRequest(json: try step(Sample.verdicts).request)
        guard case .verdicts(let verdicts) = try PushResponse(json: try step(Sample.verdicts).response) else {
            Issue.record("expected verdicts")
            return
        }
        let found = PushResponse.verdicts(verdicts.reversed()).violations(answering: request)
        #expect(found.map(\.kind) == [.verdictBijection, .verdictBijection])
        #expect(found.map(\.pointer.description) == ["/verdicts/0/mutation_id", "/verdicts/1/mutation_id"])
        let error = try #require(wireError { try PushResponse.verdicts(verdicts.reversed()).validate(answering: request) })
        #expect(error.kind == .verdictBijection)
        #expect(error.pointer.description == "/verdicts/0/mutation_id")
    }

    @Test("duplicate mutation ids break the bijection")
    func duplicateIDs() {
        // the request repeats an id: even a verdict per position cannot be a bijection
        let repeated = PushResponse.verdicts([.applied(mutationID: "a", serverRow: nil), .applied(mutationID: "a", serverRow: nil)])
        let found = repeated.violations(answering: makeRequest(["a", "a"]))
        #expect(found.map(\.kind) == [.verdictBijection])
        #expect(found.map(\.pointer.description) == ["/batch/mutations/1"])
        // the response repeats an id where the request has two
        let doubled = repeated.violations(answering: makeRequest(["a", "b"]))
        #expect(doubled.map(\.pointer.description) == ["/verdicts/1/mutation_id"])
        // a verdict answering a mutation that is not in the batch
        let stranger = PushResponse.verdicts([.applied(mutationID: "z", serverRow: nil)]).violations(answering: makeRequest(["a"]))
        #expect(stranger.map(\.pointer.description) == ["/verdicts/0/mutation_id"])
    }

    @Test("an abort answering a non-atomic batch is malformed")
    func abortOnNonAtomic() throws {
        let abort = PushResponse.aborted(BatchAbort(offenderMutationID: "b", reason: .constraint, serverRow: nil))
        let found = abort.violations(answering: makeRequest(["a", "b"], atomic: false))
        #expect(found.map(\.kind) == [.malformedPushResponse])
        #expect(found.first?.pointer.description == "/batch")
        #expect(abort.violations(answering: makeRequest(["a", "b"], atomic: true)).isEmpty)
        // the transcript abort against its request made non-atomic
        var nonAtomic = try PushRequest(json: try step(Sample.aborted).request)
        nonAtomic.atomic = false
        let response = try PushResponse(json: try step(Sample.aborted).response)
        #expect(response.violations(answering: nonAtomic).map(\.kind) == [.malformedPushResponse])
    }

    @Test("an abort naming an offender outside the batch is .unknownBatchOffender")
    func offenderOutsideBatch() throws {
        let abort = PushResponse.aborted(BatchAbort(offenderMutationID: "z", reason: .precondition, serverRow: nil))
        let found = abort.violations(answering: makeRequest(["a", "b"], atomic: true))
        #expect(found.map(\.kind) == [.unknownBatchOffender])
        #expect(found.first?.pointer.description == "/batch/offender_mutation_id")
        #expect(found.first?.error.protocolCode == "UNKNOWN_BATCH_OFFENDER")
        // both problems at once, in position order
        let both = abort.violations(answering: makeRequest(["a"], atomic: false))
        #expect(both.map(\.kind) == [.malformedPushResponse, .unknownBatchOffender])
        let error = try #require(wireError { try abort.validate(answering: makeRequest(["a"], atomic: false)) })
        #expect(error.kind == .malformedPushResponse)
    }

    @Test("a push signal other than RESET_REQUIRED does not answer a push")
    func pushSignal() {
        let found = PushResponse.signal(.checkpointExpired).violations(answering: makeRequest(["a"]))
        #expect(found.map(\.kind) == [.unknownSignal])
        #expect(found.first?.pointer.description == "/signal/type")
    }

    @Test("every error kind maps to its protocol code")
    func protocolCodes() {
        let kinds: [(WireError.Kind, String, String)] = [
            (.json, "JSON", "json"), (.malformedPushResponse, "MALFORMED_PUSH_RESPONSE", "malformedPushResponse"),
            (.malformedPullResponse, "JSON", "malformedPullResponse"), (.malformedRequest, "JSON", "malformedRequest"),
            (.malformedCursor, "JSON", "malformedCursor"), (.verdictBijection, "VERDICT_BIJECTION", "verdictBijection"),
            (.unknownVerdictKind, "MALFORMED_PUSH_RESPONSE", "unknownVerdictKind"),
            (.unknownVerdictReason, "UNKNOWN_VERDICT_REASON", "unknownVerdictReason"),
            (.unknownBatchOffender, "UNKNOWN_BATCH_OFFENDER", "unknownBatchOffender"), (.unknownSignal, "UNKNOWN_SIGNAL", "unknownSignal"),
            (.unknownOp, "UNKNOWN_OP", "unknownOp"),
        ]
        for (kind, code, name) in kinds {
            #expect(kind.protocolCode == code)
            #expect(kind.description == name)
        }
        #expect(Set(kinds.map(\.0)).count == kinds.count)
    }

    @Test("the protocol codes are in the shared error catalog")
    func codesInCatalog() throws {
        let catalog = String(decoding: try Corpus.bytes("spec/engine-errors.json"), as: UTF8.self)
        for code in [
            "MALFORMED_PUSH_RESPONSE", "VERDICT_BIJECTION", "UNKNOWN_VERDICT_REASON", "UNKNOWN_BATCH_OFFENDER", "UNKNOWN_SIGNAL",
            "UNKNOWN_OP",
        ] {
            #expect(catalog.contains("\"\(code)\""), "\(code)")
        }
    }
}
