import JSON
import KizunaWire
import PowerSyncWire

extension RecordedExchange {
    /// Reads an exchange line strictly.
    /// - Parameters:
    ///   - json: the parsed line.
    ///   - line: the line number, kept for messages.
    /// - Throws: `WireError` with the pointer of the offending value.
    public init(json: JSONValue, line: Int) throws(WireError) {
        var reader = try ObjectReader(json, at: .root, malformed: .json)
        number = try reader.integer("exchange")
        atMilliseconds = try Self.milliseconds(&reader, "at_ms")
        durationMilliseconds = try Self.milliseconds(&reader, "duration_ms")
        var identity = try ObjectReader(try reader.required("identity"), at: JSONPointer(tokens: ["identity"]), malformed: .json)
        user = try identity.optionalString("user", allowNull: true)
        client = try identity.optionalString("client", allowNull: true)
        try identity.finish()
        rpc = try reader.string("rpc")
        if !Self.kinds.contains(rpc) {
            throw WireError(.json, at: JSONPointer(tokens: ["rpc"]), "expected \(Self.kinds.joined(separator: "|")), found \"\(rpc)\"")
        }
        var http = try ObjectReader(try reader.required("http"), at: JSONPointer(tokens: ["http"]), malformed: .json)
        method = try http.string("method")
        path = try http.string("path")
        status = try http.integer("status")
        requestHeaders = try ObjectReader(
            try http.required("request_headers"), at: http.pointer.appending("request_headers"), malformed: .json
        ).object
        responseHeaders = try ObjectReader(
            try http.required("response_headers"), at: http.pointer.appending("response_headers"), malformed: .json
        ).object
        try http.finish()
        lineMilliseconds = try Self.lineMilliseconds(&reader)
        request = try reader.required("request")
        response = try reader.required("response")
        if let lineMilliseconds, lineMilliseconds.count != response.arrayValue?.count {
            throw WireError(
                .json, at: JSONPointer(tokens: ["line_ms"]),
                "expected one arrival per line of the response (\(response.arrayValue?.count ?? 0)), found \(lineMilliseconds.count)")
        }
        try reader.finish()
        self.line = line
    }

    /// The exchange kinds a recording names under `rpc`: KizunaSync's RPCs, PowerSync's routes
    /// (by their step kinds) and `http` for every other path.
    public static let kinds = PostgRESTSurface.rpcNames + PowerSync.Surface.Route.allCases.map(\.rawValue) + ["http"]

    private static func milliseconds(_ reader: inout ObjectReader, _ key: String) throws(WireError) -> Double {
        let value = try reader.required(key)
        guard case .number(let number) = value, let milliseconds = Double(number.literal) else {
            throw reader.typeError(key, "a number of milliseconds", value)
        }
        guard isRecordable(milliseconds: milliseconds) else {
            throw WireError(
                .json, at: reader.pointer.appending(key),
                "expected \(recordableMilliseconds), found \(number.literal)")
        }
        return milliseconds
    }

    /// The optional `line_ms` member: an array of recordable milliseconds.
    private static func lineMilliseconds(_ reader: inout ObjectReader) throws(WireError) -> [Double]? {
        guard reader.has("line_ms") else { return nil }
        var all: [Double] = []
        for (index, value) in try reader.array("line_ms").enumerated() {
            guard case .number(let number) = value, let milliseconds = Double(number.literal), isRecordable(milliseconds: milliseconds)
            else {
                throw WireError(
                    .json, at: reader.pointer.appending("line_ms").appending(index),
                    "expected \(recordableMilliseconds), found \(CanonicalJSON.compact(value))")
            }
            all.append(milliseconds)
        }
        return all
    }

    /// The exchange line's JSON (without the trailing newline).
    public var json: JSONValue {
        var identity = JSONObject()
        identity["client"] = client.map { .string($0) } ?? .null
        identity["user"] = user.map { .string($0) } ?? .null
        var object: JSONObject = [
            "at_ms": .number(JSONNumber(literal: Self.format(atMilliseconds))),
            "duration_ms": .number(JSONNumber(literal: Self.format(durationMilliseconds))),
            "exchange": .number(JSONNumber(number)),
            "http": [
                "method": .string(method), "path": .string(path), "request_headers": .object(requestHeaders),
                "response_headers": .object(responseHeaders), "status": .number(JSONNumber(status)),
            ],
            "identity": .object(identity), "request": request, "response": response, "rpc": .string(rpc),
        ]
        if let lineMilliseconds {
            object["line_ms"] = .array(lineMilliseconds.map { .number(JSONNumber(literal: Self.format($0))) })
        }
        return .object(object)
    }
}
