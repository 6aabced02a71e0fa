import Corpus
import JSON
import PowerSyncWire

extension PowerSync {
    /// What a recorded exchange is to the PowerSync profile.
    public enum RecordedStep: Sendable, Hashable {
        /// Not one of PowerSync's routes.
        case notPowerSync
        /// A PowerSync exchange that cannot be judged offline, and why (an error answer, a body not
        /// recorded).
        case notJudged(PowerSync.Surface.Route, String)
        /// The exchange as a transcript step numbered after the exchange.
        case step(PowerSync.Step)
        /// A call of the service's fixture endpoint (`POST /accord/powersync/…`) that set its source
        /// side during the session; `accepted` when the service answered 2xx. Not an exchange the
        /// rules judge: a replay performs it (docs/recording.md, "PowerSync exchanges").
        case fixture(PowerSync.Surface.Fixture, accepted: Bool)
    }
}

extension RecordedExchange {
    /// The exchange read as a PowerSync transcript step (docs/recording.md, "NDJSON answers"):
    /// a sync stream's request body and its lines (the recorded array), a checkpoint request's
    /// bodies, a write checkpoint's query parameters and answer. The step is numbered after the
    /// exchange.
    public var powerSyncStep: PowerSync.RecordedStep {
        guard let route = PowerSync.Surface.route(kind: rpc) else {
            guard rpc == "http", method == "POST", let fixture = PowerSync.Surface.fixture(atPath: path) else { return .notPowerSync }
            return .fixture(fixture, accepted: (200..<300).contains(status))
        }
        if status == 0 { return .notJudged(route, "the answer never reached the client (status 0): nothing to judge offline") }
        guard (200..<300).contains(status) else {
            return .notJudged(
                route, "HTTP \(status) error response: the offline rules judge 2xx PowerSync answers; error shapes are not judged offline")
        }
        switch route {
        case .syncStream:
            guard let lines = response.arrayValue else {
                return .notJudged(route, "the answer is not recorded as NDJSON lines (\(response.typeName)): nothing to judge offline")
            }
            guard !lines.isEmpty else { return .notJudged(route, "the stream answered no whole NDJSON line: nothing to judge offline") }
            return .step(PowerSync.Step(n: number, action: .syncStream(request: request, lines: lines)))
        case .checkpointRequest:
            guard response.objectValue != nil else {
                return .notJudged(route, "the answer is not a JSON object (\(response.typeName)): nothing to judge offline")
            }
            return .step(PowerSync.Step(n: number, action: .checkpointRequest(request: request, response: response)))
        case .writeCheckpoint:
            guard response.objectValue != nil else {
                return .notJudged(route, "the answer is not a JSON object (\(response.typeName)): nothing to judge offline")
            }
            return .step(PowerSync.Step(n: number, action: .writeCheckpoint(request: .object(queryParameters), response: response)))
        }
    }

    /// The query parameters of `path` as an object of strings, percent-decoded (`+` as a space),
    /// the last value winning for a repeated name.
    public var queryParameters: JSONObject {
        guard let query = path.split(separator: "?", maxSplits: 1).dropFirst().first else { return JSONObject() }
        return Self.queryParameters(of: query)
    }

    /// The parameters of a query (the part after `?`) as an object of strings, percent-decoded
    /// (`+` as a space), the last value winning for a repeated name.
    public static func queryParameters(of query: Substring) -> JSONObject {
        var object = JSONObject()
        let bare = query.prefix { $0 != "#" }
        for pair in bare.split(separator: "&") where !pair.isEmpty {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            let name = formDecoded(parts[0])
            object[name] = .string(parts.count > 1 ? formDecoded(parts[1]) : "")
        }
        return object
    }

    private static func formDecoded(_ text: Substring) -> String {
        let bytes = Array(text.utf8)
        return String(decoding: bytes.withUnsafeBufferPointer { PercentEncoding.decodedOnce($0, plusAsSpace: true) }, as: UTF8.self)
    }
}
