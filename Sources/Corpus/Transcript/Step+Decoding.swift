import JSON
import KizunaWire

extension Step {
    /// Reads one step by its `kind` (the oneOf of transcript.schema.json#/$defs/step).
    /// - Parameters:
    ///   - json: the step object.
    ///   - pointer: where it sits, e.g. /steps/3.
    /// - Throws: `WireError` with the pointer of the offending value.
    public init(json: JSONValue, at pointer: JSONPointer) throws(WireError) {
        var reader = try ObjectReader(json, at: pointer, malformed: .json)
        let kind = try reader.string("kind")
        n = try reader.integer("n")
        switch kind {
        case "rpc":
            let rpc = try reader.string("rpc")
            guard let rpcKind = RPCKind(rawValue: rpc) else {
                throw WireError(.json, at: pointer.appending("rpc"), "expected pull|push, found \"\(rpc)\"")
            }
            let request = try reader.required("request")
            let response = try reader.required("response")
            if request.objectValue == nil { throw reader.typeError("request", "an object", request) }
            if response.objectValue == nil { throw reader.typeError("response", "an object", response) }
            let status = try reader.optionalInteger("status") ?? 200
            if !(100...599).contains(status) {
                throw WireError(.json, at: pointer.appending("status"), "an HTTP status is 100–599, found \(status)")
            }
            var exchange = RPCExchange(rpc: rpcKind, request: request, response: response, status: status)
            if let caller = reader.optional("caller") {
                var callerReader = try ObjectReader(caller, at: pointer.appending("caller"), malformed: .json)
                exchange.caller = (try callerReader.uuid("user"), try callerReader.uuid("client"))
                try callerReader.finish()
            }
            if let code = try reader.optionalString("expect_error") {
                guard code.first.map({ $0 >= "A" && $0 <= "Z" }) == true,
                    code.unicodeScalars.allSatisfy({ ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" })
                else {
                    throw WireError(
                        .json, at: pointer.appending("expect_error"), "an engine error code is [A-Z][A-Z0-9_]*, found \"\(code)\"")
                }
                exchange.expectError = code
            }
            action = .rpc(exchange)
        case "server":
            let op = try reader.string("op")
            if op == "reap" {
                action = .reap
            } else {
                guard op == "upsert" || op == "delete" else {
                    throw WireError(.json, at: pointer.appending("op"), "expected upsert|delete|reap, found \"\(op)\"")
                }
                action = .server(
                    ServerChange(
                        actor: try reader.string("actor"), op: op, table: try reader.string("table"), pk: try reader.string("pk"),
                        columns: try reader.optionalColumns("columns"), hlc: try reader.optionalString("hlc")))
            }
        case "local":
            action = .local(try LocalWrite(reading: &reader))
        case "fault":
            let fault = try reader.string("fault")
            guard let faultKind = TransportFault.Kind(rawValue: fault) else {
                throw WireError(.json, at: pointer.appending("fault"), "expected drop-ack|transport-error, found \"\(fault)\"")
            }
            let target = try reader.string("target")
            guard let targetKind = RPCKind(rawValue: target) else {
                throw WireError(.json, at: pointer.appending("target"), "expected pull|push, found \"\(target)\"")
            }
            let request = reader.optional("request")
            if faultKind == .dropAck && request == nil {
                throw WireError(.json, at: pointer, "a drop-ack fault carries the request that was applied")
            }
            action = .fault(TransportFault(fault: faultKind, target: targetKind, request: request))
        case "assert":
            var checks: [Check] = []
            for (index, element) in try reader.array("checks").enumerated() {
                checks.append(try Check(json: element, at: pointer.appending("checks").appending(index)))
            }
            if checks.isEmpty { throw WireError(.json, at: pointer.appending("checks"), "an assert step has at least one check") }
            action = .assert(checks)
        default:
            throw WireError(.json, at: pointer.appending("kind"), "unknown step kind \"\(kind)\" (expected rpc|server|local|fault|assert)")
        }
        try reader.finish()
    }
}

extension LocalWrite {
    init(reading reader: inout ObjectReader) throws(WireError) {
        let pointer = reader.pointer
        mutationID = try reader.string("mutation_id")
        op = try MutationOp.read(try reader.required("op"), at: pointer.appending("op"), unknown: .unknownOp, malformed: .json, what: "op")
        table = try reader.string("table")
        pk = try reader.string("pk")
        columns = try reader.columns("columns")
        precondition = try reader.optionalColumns("precondition")
        var transforms: [(column: String, transform: Transform)] = []
        if let value = reader.optional("transforms") {
            let at = pointer.appending("transforms")
            for member in try ObjectReader(value, at: at, malformed: .json).object.members {
                transforms.append((member.key, try Transform.read(member.value, at: at.appending(member.key), malformed: .json)))
            }
        }
        self.transforms = transforms
        expectError = try reader.optionalString("expect_error")
    }
}

extension Check {
    /// Reads one check (transcript.schema.json#/$defs/check).
    /// - Parameters:
    ///   - json: the check object.
    ///   - pointer: where it sits.
    /// - Throws: `WireError` with the pointer of the offending value.
    public init(json: JSONValue, at pointer: JSONPointer) throws(WireError) {
        var reader = try ObjectReader(json, at: pointer, malformed: .json)
        let check = try reader.string("check")
        switch check {
        case "local-row":
            let table = try reader.string("table")
            let pk = try reader.string("pk")
            self = .localRow(table: table, pk: pk, row: try reader.optionalColumns("row", allowNull: true))
            if !reader.has("row") { throw WireError(.json, at: pointer, "missing required key \"row\"") }
        case "cursor":
            self = .cursor(try reader.string("value"))
        case "outbox-depth":
            self = .outboxDepth(try reader.integer("value"))
        case "event":
            let event = try reader.string("event")
            guard Check.events.contains(event) else {
                throw WireError(.json, at: pointer.appending("event"), "unknown event \"\(event)\"")
            }
            self = .event(event)
        case "no-intermediate-commit":
            self = .noIntermediateCommit
        default:
            throw WireError(.json, at: pointer.appending("check"), "unknown check \"\(check)\"")
        }
        try reader.finish()
    }
}
