import Corpus
import JSON
import PowerSyncWire

extension HARImport {
    /// A sync stream's 2xx answer as HAR's `content.text` holds it (the NDJSON text whole),
    /// recorded as `accord record` records it: the array of its lines, each its JSON value (or
    /// the line as a string when it is not JSON). A HAR holds the body the browser or proxy
    /// saved, so its end is taken as the body's end: a last line without its LF is a line.
    /// - Parameters:
    ///   - text: the answer's text.
    ///   - rpc: the exchange kind.
    ///   - status: the HTTP status.
    /// - Returns: the lines, or nil when the exchange is not a sync stream's 2xx answer.
    static func ndjsonAnswer(_ text: String?, rpc: String, status: Int) -> JSONValue? {
        guard let route = PowerSync.Surface.route(kind: rpc), route.answersNDJSON, (200..<300).contains(status), let text else {
            return nil
        }
        let bytes = Array(text.utf8)
        let split = NDJSONLines(bytes, ended: true)
        return .array(
            split.lines.map { range in
                let line = Array(bytes[range])
                return (try? JSONParser.parse(line)) ?? .string(String(decoding: line, as: UTF8.self))
            })
    }
}

extension HARExport {
    /// A sync stream's recorded lines as HAR's `content.text`: one compact JSON value a line,
    /// each ending in LF, as the service sent them; nil for any other exchange.
    /// - Returns: the NDJSON text and its media type, or nil.
    static func ndjsonText(_ exchange: RecordedExchange) -> (text: String, mimeType: String, isText: Bool)? {
        guard let route = PowerSync.Surface.route(kind: exchange.rpc), route.answersNDJSON, (200..<300).contains(exchange.status),
            let lines = exchange.response.arrayValue
        else { return nil }
        let text = lines.map { line in
            if case .string(let raw) = line { return raw + "\n" }
            return CanonicalJSON.compact(line) + "\n"
        }.joined()
        return (text, PowerSync.Surface.ndjsonMediaType, false)
    }
}
