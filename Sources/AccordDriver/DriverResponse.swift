import Corpus
import JSON
import KizunaWire
import PowerSyncWire

/// One response line from a driver: the echoed `id` and either a result or an error.
public struct DriverResponse: Sendable, Hashable {
    /// The echoed request id; nil when the request line carried no readable id.
    public var id: Int?
    /// The result or the failure.
    public var outcome: Result<DriverResult, DriverFailureError>

    /// Makes a successful response.
    public init(id: Int?, result: DriverResult) {
        self.id = id
        self.outcome = .success(result)
    }

    /// Makes a failed response.
    public init(id: Int?, failure: DriverFailure) {
        self.id = id
        self.outcome = .failure(DriverFailureError(failure))
    }

    /// The result, when the request succeeded.
    public var result: DriverResult? { try? outcome.get() }

    /// The failure, when the request failed.
    public var failure: DriverFailure? {
        if case .failure(let error) = outcome { return error.failure }
        return nil
    }

    /// The response as JSON, keys in canonical order.
    public var json: JSONValue {
        var object: JSONObject = ["id": id.map { .number(JSONNumber($0)) } ?? .null]
        switch outcome {
        case .success(let result): object["result"] = result.json
        case .failure(let error):
            var failure: JSONObject = ["code": .string(error.failure.code), "message": .string(error.failure.message)]
            if let pointer = error.failure.pointer { failure["pointer"] = .string(pointer.description) }
            object["error"] = .object(failure)
        }
        return .object(object)
    }

    /// The response as one line: compact canonical JSON and a trailing newline.
    public var line: [UInt8] { DriverLine.encode(json) }

    /// Decodes a response line strictly, knowing which operation it answers.
    /// - Parameters:
    ///   - line: the line's bytes, without its newline.
    ///   - op: the operation of the request it answers.
    /// - Throws: `DriverError` of kind `badResponse` (or `badJSON`) naming the pointer.
    public init(line: [UInt8], answering op: DriverOp) throws(DriverError) {
        let json: JSONValue
        do throws(JSONParseError) {
            json = try JSONParser.parse(line)
        } catch {
            throw DriverError(.badJSON, at: .root, "not JSON: column \(error.column): \(error.reason)")
        }
        try self.init(json: json, answering: op)
    }

    /// Decodes a parsed response strictly, knowing which operation it answers.
    /// - Parameters:
    ///   - json: the response object.
    ///   - op: the operation of the request it answers.
    /// - Throws: `DriverError` of kind `badResponse` naming the pointer.
    public init(json: JSONValue, answering op: DriverOp) throws(DriverError) {
        do throws(WireError) {
            var reader = try ObjectReader(json, at: .root, malformed: .malformedRequest)
            let idValue = try reader.required("id")
            if idValue.isNull {
                id = nil
            } else {
                guard let value = idValue.numberValue?.intValue, value >= 0 else {
                    throw reader.typeError("id", "a non-negative integer or null", idValue)
                }
                id = value
            }
            switch (reader.has("result"), reader.has("error")) {
            case (true, false):
                outcome = .success(try DriverResult(json: try reader.required("result"), answering: op))
            case (false, true):
                let at = JSONPointer(tokens: ["error"])
                var error = try ObjectReader(try reader.required("error"), at: at, malformed: .malformedRequest)
                let code = try error.string("code")
                if !EngineErrorCode.isCode(code) {
                    throw WireError(.malformedRequest, at: at.appending("code"), "\"\(code)\" is not an error code ([A-Z][A-Z0-9_]*)")
                }
                let message = try error.string("message")
                var pointer: JSONPointer?
                if let text = try error.optionalString("pointer") {
                    guard let parsed = JSONPointer(text) else {
                        throw WireError(.malformedRequest, at: at.appending("pointer"), "\"\(text)\" is not a JSON pointer")
                    }
                    pointer = parsed
                }
                try error.finish()
                outcome = .failure(DriverFailureError(DriverFailure(code: code, message: message, pointer: pointer)))
            default:
                throw WireError(.malformedRequest, at: .root, "a response carries exactly one of result and error")
            }
            try reader.finish()
        } catch {
            throw DriverError.response(error)
        }
    }
}

/// A `DriverFailure` as an `Error`, so a response's outcome can be a `Result`.
public struct DriverFailureError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The failure.
    public var failure: DriverFailure

    /// Wraps a failure.
    public init(_ failure: DriverFailure) { self.failure = failure }

    /// "CODE: message".
    public var description: String { failure.description }
}

extension DriverResult {
    /// The result object of the response.
    public var json: JSONValue {
        switch self {
        case .hello(let hello):
            var object: JSONObject = [
                "capabilities": .array(hello.capabilities.map { .string($0) }), "name": .string(hello.name),
                "protocol": .string(hello.protocolVersion), "version": .string(hello.version),
            ]
            if hello.profile != .kizunaSync { object["profile"] = .string(hello.profile.rawValue) }
            if let parts = hello.parts { object["parts"] = .array(parts.map { .string($0) }) }
            return .object(object)
        case .opened, .closed:
            return .object(JSONObject())
        case .written(let write):
            return ["outbox_depth": .number(JSONNumber(write.outboxDepth))]
        case .pushed(let push):
            var object: JSONObject = ["mutations": .number(JSONNumber(push.mutations)), "outcome": .string(push.outcome.rawValue)]
            if let signal = push.signal { object["signal"] = .string(signal.rawValue) }
            return .object(object)
        case .pulled(let pull):
            var object: JSONObject = [
                "cursor": .string(pull.cursor), "outcome": .string(pull.outcome.rawValue), "pages": .number(JSONNumber(pull.pages)),
            ]
            if let signal = pull.signal { object["signal"] = .string(signal.rawValue) }
            return .object(object)
        case .powerSync(let result):
            return result.json
        case .state(let state):
            var rows = JSONObject()
            for (table, byKey) in state.rows {
                rows[table] = .object(JSONObject(pairs: byKey.map { ($0.key, .object($0.value)) }))
            }
            return [
                "cursor": .string(state.cursor),
                "events": .array(
                    state.events.map { event in
                        var object: JSONObject = ["code": .string(event.code)]
                        if let id = event.mutationID { object["mutation_id"] = .string(id) }
                        if let data = event.data { object["data"] = .object(data) }
                        return .object(object)
                    }),
                "journal": .array(
                    state.journal.map { entry in
                        var object: JSONObject = ["pk": .string(entry.pk), "reason": .string(entry.reason), "table": .string(entry.table)]
                        if let id = entry.mutationID { object["mutation_id"] = .string(id) }
                        if let data = entry.data { object["data"] = .object(data) }
                        return .object(object)
                    }),
                "outbox_depth": .number(JSONNumber(state.outboxDepth)), "rows": .object(rows),
            ]
        }
    }

    /// Reads a result object strictly for the operation it answers.
    /// - Parameters:
    ///   - json: the result object.
    ///   - op: the operation.
    /// - Throws: `WireError` naming the pointer.
    init(json: JSONValue, answering op: DriverOp) throws(WireError) {
        let at = JSONPointer(tokens: ["result"])
        var reader = try ObjectReader(json, at: at, malformed: .malformedRequest)
        switch op {
        case .hello:
            let name = try reader.string("name")
            let version = try reader.string("version")
            let version2 = try reader.string("protocol")
            var capabilities: [String] = []
            for (index, element) in try reader.array("capabilities").enumerated() {
                guard case .string(let text) = element else {
                    throw WireError(.malformedRequest, at: at.appending("capabilities").appending(index), "expected a string")
                }
                capabilities.append(text)
            }
            var hello = HelloResult(name: name, version: version, capabilities: capabilities, protocolVersion: version2)
            if let text = try reader.optionalString("profile") {
                guard let profile = CorpusProfile(rawValue: text) else {
                    throw WireError(.malformedRequest, at: at.appending("profile"), "expected kizunasync or powersync, found \"\(text)\"")
                }
                hello.profile = profile
            }
            if let declared = reader.optional("parts") {
                guard case .array(let elements) = declared else {
                    throw WireError(.malformedRequest, at: at.appending("parts"), "expected an array of strings")
                }
                var parts: [String] = []
                for (index, element) in elements.enumerated() {
                    guard case .string(let text) = element, DriverPart.all.contains(text) else {
                        throw WireError(
                            .malformedRequest, at: at.appending("parts").appending(index),
                            "expected one of \(DriverPart.all.joined(separator: ", "))")
                    }
                    parts.append(text)
                }
                hello.parts = parts
            }
            self = .hello(hello)
        case .open: self = .opened
        case .close: self = .closed
        case .write: self = .written(WriteResult(outboxDepth: try Self.count(&reader, "outbox_depth")))
        case .push:
            let outcome = try PushOutcome.read(
                try reader.required("outcome"), at: at.appending("outcome"), unknown: .malformedRequest, malformed: .malformedRequest,
                what: "push outcome")
            let mutations = try Self.count(&reader, "mutations")
            let signal = try Self.signal(&reader, at: at)
            self = .pushed(PushResult(outcome: outcome, mutations: mutations, signal: signal))
        case .pull:
            let outcome = try PullOutcome.read(
                try reader.required("outcome"), at: at.appending("outcome"), unknown: .malformedRequest, malformed: .malformedRequest,
                what: "pull outcome")
            let cursor = try reader.string("cursor")
            let pages = try Self.count(&reader, "pages")
            let signal = try Self.signal(&reader, at: at)
            if (outcome == .signal) != (signal != nil) {
                throw WireError(.malformedRequest, at: at.appending("signal"), "signal is present exactly when outcome is signal")
            }
            self = .pulled(PullResult(outcome: outcome, cursor: cursor, pages: pages, signal: signal))
        case .state:
            self = .state(try Self.state(&reader, at: at))
        default:
            self = .powerSync(try PowerSync.OpResult(reading: &reader, answering: op, at: at))
        }
        try reader.finish()
    }

    private static func count(_ reader: inout ObjectReader, _ key: String) throws(WireError) -> Int {
        let value = try reader.integer(key)
        if value < 0 { throw WireError(.malformedRequest, at: reader.pointer.appending(key), "\(key) is never negative") }
        return value
    }

    private static func signal(_ reader: inout ObjectReader, at: JSONPointer) throws(WireError) -> SignalType? {
        guard let value = reader.optional("signal") else { return nil }
        return try SignalType.read(value, at: at.appending("signal"), unknown: .unknownSignal, malformed: .malformedRequest, what: "signal")
    }

    private static func state(_ reader: inout ObjectReader, at: JSONPointer) throws(WireError) -> StateResult {
        var rows: [String: [String: JSONObject]] = [:]
        let rowsAt = at.appending("rows")
        for table in try ObjectReader(try reader.required("rows"), at: rowsAt, malformed: .malformedRequest).object.members {
            var byKey: [String: JSONObject] = [:]
            let tableAt = rowsAt.appending(table.key)
            for row in try ObjectReader(table.value, at: tableAt, malformed: .malformedRequest).object.members {
                byKey[row.key] = try ColumnValues.read(row.value, at: tableAt.appending(row.key), malformed: .malformedRequest)
            }
            rows[table.key] = byKey
        }
        let cursor = try reader.string("cursor")
        let depth = try count(&reader, "outbox_depth")
        var events: [EngineEvent] = []
        for (index, element) in try reader.array("events").enumerated() {
            var event = try ObjectReader(element, at: at.appending("events").appending(index), malformed: .malformedRequest)
            let code = try event.string("code")
            let id = try event.optionalString("mutation_id")
            let data = try optionalObject(&event, "data")
            try event.finish()
            events.append(EngineEvent(code: code, mutationID: id, data: data))
        }
        var journal: [JournalEntry] = []
        for (index, element) in try reader.array("journal").enumerated() {
            var entry = try ObjectReader(element, at: at.appending("journal").appending(index), malformed: .malformedRequest)
            let table = try entry.string("table")
            let pk = try entry.string("pk")
            let id = try entry.optionalString("mutation_id")
            let reason = try entry.string("reason")
            let data = try optionalObject(&entry, "data")
            try entry.finish()
            journal.append(JournalEntry(table: table, pk: pk, mutationID: id, reason: reason, data: data))
        }
        return StateResult(rows: rows, cursor: cursor, outboxDepth: depth, events: events, journal: journal)
    }

    private static func optionalObject(_ reader: inout ObjectReader, _ key: String) throws(WireError) -> JSONObject? {
        guard let value = reader.optional(key) else { return nil }
        guard case .object(let object) = value else { throw reader.typeError(key, "an object", value) }
        return object
    }
}
