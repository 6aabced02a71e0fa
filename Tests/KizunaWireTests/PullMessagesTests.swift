import JSON
import Testing

@testable import KizunaWire

/// The wire error reading `value` as a pull request, if any.
private func requestError(_ value: JSONValue) -> WireError? { wireError { try PullRequest(json: value) } }
/// The wire error reading `value` as a pull response, if any.
private func responseError(_ value: JSONValue) -> WireError? { wireError { try PullResponse(json: value) } }

@Suite("Pull messages")
struct PullMessagesTests {
    static let pullSteps = Corpus.allRPCSteps.filter { $0.rpc == "pull" }

    /// A pull with rows, tombstones and a continuation cursor.
    static let file = "transcripts/push/002-rls-denied-not-a-wedge.json"

    @Test("the corpus has pull steps")
    func corpusHasPulls() {
        #expect(Self.pullSteps.count >= 70)
        #expect(Self.pullSteps.contains { $0.response["conflicts"] != nil })
        #expect(Self.pullSteps.contains { $0.response["signal"]?.isNull == false })
        #expect(Self.pullSteps.contains { ($0.response["tombstones"]?.arrayValue?.count ?? 0) > 0 })
        #expect(Self.pullSteps.contains { $0.response["cursor"]?.stringValue?.contains(":") == true })
        #expect(Self.pullSteps.contains { $0.response["cursor"]?.stringValue?.contains("~") == true })
    }

    @Test("every transcript pull decodes and re-renders canonically equal", arguments: pullSteps)
    func transcriptPullRoundTrips(_ step: Corpus.RPCStep) throws {
        let request = try PullRequest(json: step.request)
        #expect(CanonicalJSON.render(request.json) == CanonicalJSON.render(step.request))
        let response = try PullResponse(json: step.response)
        #expect(CanonicalJSON.render(response.json) == CanonicalJSON.render(step.response))
        // and from bytes, as a client receives it
        let fromBytes = try PullResponse(bytes: CanonicalJSON.render(step.response))
        #expect(fromBytes == response)
        #expect(try PullRequest(bytes: CanonicalJSON.render(step.request)) == request)
    }

    @Test("decodes the fields of a pull")
    func decodesFields() throws {
        let step = try rpcStep(Self.file, 9)
        let request = try PullRequest(json: step.request)
        #expect(request.cursor == (try CursorToken(parsing: "1")))
        #expect(request.schemaVersion == 1)
        #expect(request.limit == nil)
        #expect(request.clientID == "00000000-0000-4000-8000-c10000000001")
        #expect(request.buckets == [Bucket(table: "todos", params: ["owner_id": "00000000-0000-4000-8000-a10000000001"])])
        let response = try PullResponse(json: step.response)
        #expect(response.cursor.description == "4")
        #expect(!response.hasMore)
        #expect(response.signal == nil)
        #expect(response.conflicts == nil)
        #expect(response.rows.map(\.seq.text) == ["4"])
        #expect(response.rows.first?.row["title"] == "new while offline")
        #expect(response.tombstones.map(\.seq.text) == ["2"])
        #expect(response.tombstones.first?.deletedAt == "2026-01-01T00:00:04.000Z")
        #expect(response.entryCount == 2)
    }

    @Test("decodes the conflict journal and signals")
    func decodesConflictsAndSignals() throws {
        let journal = try PullResponse(json: try rpcStep("transcripts/conflict/004-journal-on-winning-pull.json", 6).response)
        let entry = try #require(journal.conflicts?.first)
        #expect(entry.columnName == "title")
        #expect(entry.conflictMode == "arrival")
        #expect(entry.loserValue == "device-b title")
        #expect(entry.winnerSeq.text == "3")
        let expired = try PullResponse(json: try rpcStep("transcripts/lifecycle/001-checkpoint-expired-rehydrate.json", 1).response)
        #expect(expired.signal == .checkpointExpired)
        #expect(expired.entryCount == 0)
    }

    @Test("builds requests and responses that read back")
    func buildsMessages() throws {
        let request = PullRequest(
            buckets: [Bucket(table: "notices", params: ["org_id": 7, "active": true])], cursor: try CursorToken(parsing: "3:9~5"),
            schemaVersion: 2, limit: 50, clientID: "00000000-0000-4000-8000-c10000000001")
        #expect(
            CanonicalJSON.compact(request.json)
                == "{\"buckets\":[{\"params\":{\"active\":true,\"org_id\":7},\"table\":\"notices\"}],\"client_id\":\"00000000-0000-4000-8000-c10000000001\",\"cursor\":\"3:9~5\",\"limit\":50,\"schema_version\":2}"
        )
        #expect(try PullRequest(json: request.json) == request)
        let response = PullResponse(
            cursor: try CursorToken(parsing: "0:12"), hasMore: true,
            rows: [RowChange(table: "t", pk: "1", seq: SequenceNumber("12")!, row: ["tags": ["a", 1, true], "n": nil])],
            tombstones: [Tombstone(table: "t", pk: "2", seq: SequenceNumber("11")!, deletedAt: "2026-01-01T00:00:01.000Z")],
            signal: nil,
            conflicts: [
                ConflictEntry(
                    columnName: "c", conflictMode: "hlc", loserValue: ["x": [1]], pk: "1", table: "t",
                    winnerMutationID: "00000000-0000-4000-8000-f10000000001",
                    winnerSeq: SequenceNumber("12")!)
            ])
        #expect(try PullResponse(json: response.json) == response)
        #expect(CanonicalJSON.render(try PullResponse(json: response.json).json) == CanonicalJSON.render(response.json))
        let signal = PullResponse(cursor: .bootstrap, hasMore: false, rows: [], tombstones: [], signal: .resetRequired)
        #expect(
            CanonicalJSON.compact(signal.json)
                == "{\"cursor\":\"0\",\"has_more\":false,\"rows\":[],\"signal\":{\"type\":\"RESET_REQUIRED\"},\"tombstones\":[]}")
        #expect(try PullResponse(json: signal.json) == signal)
    }

    // MARK: - requests that break the schema

    @Test("an unknown key in a pull request names its pointer")
    func requestUnknownKey() throws {
        let request = try rpcStep(Self.file, 9).request
        let cases: [(JSONValue, String)] = [
            (request.setting("/extra", to: 1), "/extra"),
            (request.setting("/buckets/0/extra", to: 1), "/buckets/0/extra"),
            (request.setting("/Cursor", to: "1"), "/Cursor"),
        ]
        for (value, pointer) in cases {
            let error = try #require(requestError(value))
            #expect(error.kind == .malformedRequest)
            #expect(error.protocolCode == "JSON")
            #expect(error.pointer.description == pointer)
            #expect(error.detail.contains("unknown key"))
        }
    }

    @Test(
        "pull request shape errors",
        arguments: [
            ("/cursor", nil, "", "missing required key \"cursor\""),
            ("/buckets", nil, "", "missing required key \"buckets\""),
            ("/schema_version", nil, "", "missing required key \"schema_version\""),
            ("/schema_version", "1", "/schema_version", "an integer"),
            ("/schema_version", .number(JSONNumber(literal: "1.0")), "/schema_version", "an integer"),
            ("/schema_version", .number(JSONNumber(literal: "99999999999999999999")), "/schema_version", "an integer"),
            ("/limit", "500", "/limit", "an integer"),
            ("/limit", .null, "/limit", "an integer"),
            ("/client_id", 7, "/client_id", "a string"),
            ("/client_id", .null, "/client_id", "a string"),
            ("/cursor", 1, "/cursor", "a string"),
            ("/buckets", [:], "/buckets", "an array"),
            ("/buckets/0", "todos", "/buckets/0", "an object"),
            ("/buckets/0/table", nil, "/buckets/0", "missing required key \"table\""),
            ("/buckets/0/params", [], "/buckets/0/params", "expected an object"),
            ("/buckets/0/params/owner_id", ["nested": 1], "/buckets/0/params/owner_id", "string, integer or boolean"),
            ("/buckets/0/params/owner_id", .number(JSONNumber(literal: "1.5")), "/buckets/0/params/owner_id", "string, integer or boolean"),
            ("/buckets/0/params/owner_id", .null, "/buckets/0/params/owner_id", "string, integer or boolean"),
            ("/buckets/0/params/owner_id", ["a"], "/buckets/0/params/owner_id", "string, integer or boolean"),
            ("/schema_version", 0, "/schema_version", "at least 1"),
            ("/limit", 0, "/limit", "at least 1"),
        ] as [(String, JSONValue?, String, String)])
    func requestShapeErrors(_ target: String, _ replacement: JSONValue?, _ pointer: String, _ detail: String) throws {
        let request = try rpcStep(Self.file, 9).request.setting(target, to: replacement)
        let error = try #require(requestError(request), "\(target) = \(String(describing: replacement))")
        #expect(error.kind == .malformedRequest)
        #expect(error.pointer.description == pointer)
        #expect(error.detail.contains(detail), "\(error)")
    }

    @Test("limit is optional, and an integer when present")
    func requestLimit() throws {
        let request = try rpcStep(Self.file, 9).request
        #expect(try PullRequest(json: request).limit == nil)
        let limited = request.setting("/limit", to: 25)
        #expect(try PullRequest(json: limited).limit == 25)
        #expect(CanonicalJSON.render(try PullRequest(json: limited).json) == CanonicalJSON.render(limited))
    }

    @Test("a malformed cursor in a pull request is .malformedCursor at /cursor", arguments: ["06", "", "6~6", "1:2:3", " 1", "9~7.5"])
    func requestMalformedCursor(_ cursor: String) throws {
        let request = try rpcStep(Self.file, 9).request.setting("/cursor", to: .string(cursor))
        let error = try #require(requestError(request))
        #expect(error.kind == .malformedCursor)
        #expect(error.pointer.description == "/cursor")
    }

    @Test("a pull request that is not an object, or repeats a key, is malformed")
    func requestNotObject() throws {
        let array = try #require(requestError([1]))
        #expect(array.kind == .malformedRequest)
        #expect(array.pointer == .root)
        #expect(array.detail.contains("expected an object, found array"))
        let request = try rpcStep(Self.file, 9).request
        let duplicated = request.appendingMember("cursor", "2")
        let error = try #require(requestError(duplicated))
        #expect(error.kind == .malformedRequest)
        #expect(error.pointer.description == "/cursor")
        #expect(error.detail.contains("duplicate"))
    }

    // MARK: - responses that break the schema

    @Test("an unknown key in a pull response names its pointer")
    func responseUnknownKey() throws {
        let response = try rpcStep(Self.file, 9).response
        let journal = try rpcStep("transcripts/conflict/004-journal-on-winning-pull.json", 6).response
        let expired = try rpcStep("transcripts/lifecycle/001-checkpoint-expired-rehydrate.json", 1).response
        let cases: [(JSONValue, String)] = [
            (response.setting("/extra", to: 1), "/extra"),
            (response.setting("/rows/0/extra", to: 1), "/rows/0/extra"),
            (response.setting("/tombstones/0/extra", to: 1), "/tombstones/0/extra"),
            (journal.setting("/conflicts/0/extra", to: 1), "/conflicts/0/extra"),
            (expired.setting("/signal/extra", to: 1), "/signal/extra"),
            (response.setting("/hasMore", to: false), "/hasMore"),
        ]
        for (value, pointer) in cases {
            let error = try #require(responseError(value), "\(pointer)")
            #expect(error.kind == .malformedPullResponse)
            #expect(error.protocolCode == "JSON")
            #expect(error.pointer.description == pointer)
        }
    }

    @Test("an unknown signal is .unknownSignal at /signal/type")
    func responseUnknownSignal() throws {
        let expired = try rpcStep("transcripts/lifecycle/001-checkpoint-expired-rehydrate.json", 1).response
        for type in ["CHECKPOINT_EXPIRE", "checkpoint_expired", "RESET", ""] {
            let error = try #require(responseError(expired.setting("/signal/type", to: .string(type))))
            #expect(error.kind == .unknownSignal)
            #expect(error.protocolCode == "UNKNOWN_SIGNAL")
            #expect(error.pointer.description == "/signal/type")
        }
        // a signal type that is not a string is a shape problem, not an unknown signal
        let numeric = try #require(responseError(expired.setting("/signal/type", to: 1)))
        #expect(numeric.kind == .malformedPullResponse)
        #expect(numeric.pointer.description == "/signal/type")
        let missingType = try #require(responseError(expired.setting("/signal", to: [:])))
        #expect(missingType.kind == .malformedPullResponse)
        #expect(missingType.pointer.description == "/signal")
        let stringSignal = try #require(responseError(expired.setting("/signal", to: "CHECKPOINT_EXPIRED")))
        #expect(stringSignal.kind == .malformedPullResponse)
        #expect(stringSignal.pointer.description == "/signal")
    }

    @Test(
        "pull response shape errors",
        arguments: [
            ("/signal", nil, "", "missing required key \"signal\""),
            ("/rows", nil, "", "missing required key \"rows\""),
            ("/tombstones", nil, "", "missing required key \"tombstones\""),
            ("/has_more", nil, "", "missing required key \"has_more\""),
            ("/has_more", "false", "/has_more", "a boolean"),
            ("/has_more", 0, "/has_more", "a boolean"),
            ("/rows", [:], "/rows", "an array"),
            ("/rows/0", [], "/rows/0", "an object"),
            ("/rows/0/seq", 4, "/rows/0/seq", "a string"),
            ("/rows/0/seq", "04", "/rows/0/seq", "decimal seq"),
            ("/rows/0/seq", "-4", "/rows/0/seq", "decimal seq"),
            ("/rows/0/pk", nil, "/rows/0", "missing required key \"pk\""),
            ("/rows/0/row/title", ["x": 1], "/rows/0/row/title", "scalar"),
            ("/rows/0/row/title", .number(JSONNumber(literal: "2.5")), "/rows/0/row/title", "integers"),
            ("/rows/0/row/title", [nil], "/rows/0/row/title/0", "array column items"),
            ("/rows/0/row/title", [[1]], "/rows/0/row/title/0", "array column items"),
            ("/tombstones/0/seq", "", "/tombstones/0/seq", "decimal seq"),
            ("/tombstones/0/deleted_at", nil, "/tombstones/0", "missing required key \"deleted_at\""),
            ("/conflicts", [:], "/conflicts", "an array"),
            ("/conflicts", [1], "/conflicts/0", "an object"),
        ] as [(String, JSONValue?, String, String)])
    func responseShapeErrors(_ target: String, _ replacement: JSONValue?, _ pointer: String, _ detail: String) throws {
        let response = try rpcStep(Self.file, 9).response.setting(target, to: replacement)
        let error = try #require(responseError(response), "\(target)")
        #expect(error.kind == .malformedPullResponse)
        #expect(error.pointer.description == pointer)
        #expect(error.detail.contains(detail), "\(error)")
    }

    @Test("a malformed cursor in a pull response is .malformedCursor at /cursor")
    func responseMalformedCursor() throws {
        let response = try rpcStep(Self.file, 9).response
        for cursor in ["4~4", "04", "4:", "x"] {
            let error = try #require(responseError(response.setting("/cursor", to: .string(cursor))))
            #expect(error.kind == .malformedCursor)
            #expect(error.pointer.description == "/cursor")
        }
    }

    @Test("conflict entries are read strictly")
    func conflictShape() throws {
        let journal = try rpcStep("transcripts/conflict/004-journal-on-winning-pull.json", 6).response
        let missing = try #require(responseError(journal.setting("/conflicts/0/loser_value", to: nil)))
        #expect(missing.pointer.description == "/conflicts/0")
        let badSeq = try #require(responseError(journal.setting("/conflicts/0/winner_seq", to: "3.0")))
        #expect(badSeq.pointer.description == "/conflicts/0/winner_seq")
        // loser_value may be any JSON value, and conflicts may be empty
        let objectLoser = journal.setting("/conflicts/0/loser_value", to: ["nested": [1, nil]])
        #expect(try PullResponse(json: objectLoser).conflicts?.first?.loserValue == ["nested": [1, nil]])
        #expect(try PullResponse(json: journal.setting("/conflicts", to: [])).conflicts == [])
    }

    @Test("errors are relative to where the message sits")
    func relocatedPointers() throws {
        let response = try rpcStep(Self.file, 9).response.setting("/rows/0/extra", to: 1)
        let at = JSONPointer(tokens: ["steps", "8", "response"])
        let error = try #require(wireError { try PullResponse(json: response, at: at) })
        #expect(error.pointer.description == "/steps/8/response/rows/0/extra")
    }

    @Test("bytes that are not JSON are kind .json")
    func notJSON() {
        let error = wireError { try PullResponse(bytes: Array("{\"cursor\": \"1\",}".utf8)) }
        #expect(error?.kind == .json)
        #expect(error?.protocolCode == "JSON")
        #expect(error?.pointer == .root)
        #expect(error?.detail.contains("line 1, column 16") == true)
        #expect(wireError { try PullRequest(bytes: []) }?.kind == .json)
    }
}
