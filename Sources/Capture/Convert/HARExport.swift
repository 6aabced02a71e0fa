import Corpus
import Foundation
import JSON

/// Turns a recording into a HAR 1.2 log (one entry per exchange, JSON bodies as
/// `postData.text` and `content.text`). What HAR has no field for travels in `_accord` members,
/// which HAR 1.2 allows for custom data: the header on the log, and each exchange's number, rpc,
/// path, identity, offset, a stream's line arrivals (`line_ms`) and whether a body was text on its entry, so that `HARImport` gives
/// the same recording back byte for byte. Headers are copied as recorded (already redacted),
/// one entry per value; placeholders are percent-escaped in `request.url` so that it parses.
public enum HARExport {
    /// The HAR document for a recording.
    /// - Parameters:
    ///   - recording: the recording.
    ///   - creatorVersion: the version named in `log.creator`.
    /// - Returns: the HAR JSON document.
    public static func har(from recording: RecordingContents, creatorVersion: String) -> JSONValue {
        let base = baseURL(recording.header.upstream)
        let start = HARTime.parse(recording.header.startedAt)
        let entries = recording.exchanges.map { entry($0, base: base, start: start, fallback: recording.header.startedAt) }
        let log: JSONValue = [
            "version": "1.2", "creator": ["name": "accord", "version": .string(creatorVersion)], "entries": .array(entries),
            "_accord": recording.header.json,
        ]
        return ["log": log]
    }

    static func entry(_ exchange: RecordedExchange, base: String, start: Date?, fallback: String) -> JSONValue {
        let started = start.map { HARTime.format($0.addingTimeInterval(exchange.atMilliseconds / 1000)) } ?? fallback
        var request: JSONObject = [
            "method": .string(exchange.method), "url": .string(base + PercentEncoding.escapingPlaceholders(exchange.path)),
            "httpVersion": "HTTP/1.1", "headers": headers(exchange.requestHeaders), "queryString": queryString(exchange.path),
            "cookies": [], "headersSize": -1,
        ]
        let sent = body(exchange.request, headers: exchange.requestHeaders)
        request["bodySize"] = .number(JSONNumber(sent?.text.utf8.count ?? 0))
        if let sent { request["postData"] = ["mimeType": .string(sent.mimeType), "text": .string(sent.text)] }
        let answered = ndjsonText(exchange) ?? body(exchange.response, headers: exchange.responseHeaders)
        var content: JSONObject = [
            "size": .number(JSONNumber(answered?.text.utf8.count ?? 0)), "mimeType": .string(answered?.mimeType ?? "application/json"),
        ]
        if let answered { content["text"] = .string(answered.text) }
        let response: JSONValue = [
            "status": .number(JSONNumber(exchange.status)), "statusText": "", "httpVersion": "HTTP/1.1",
            "headers": headers(exchange.responseHeaders), "cookies": [], "content": .object(content), "redirectURL": "",
            "headersSize": -1, "bodySize": .number(JSONNumber(answered?.text.utf8.count ?? 0)),
        ]
        var accord: JSONObject = [
            "exchange": .number(JSONNumber(exchange.number)), "rpc": .string(exchange.rpc), "path": .string(exchange.path),
            "identity": ["user": exchange.user.map { .string($0) } ?? .null, "client": exchange.client.map { .string($0) } ?? .null],
            "at_ms": exchange.json["at_ms"] ?? 0,
        ]
        if let arrivals = exchange.json["line_ms"] { accord["line_ms"] = arrivals }
        if sent?.isText == true { accord["request_text"] = true }
        if answered?.isText == true { accord["response_text"] = true }
        return [
            "startedDateTime": .string(started), "time": exchange.json["duration_ms"] ?? 0, "request": .object(request),
            "response": response, "cache": [:],
            "timings": ["send": 0, "wait": exchange.json["duration_ms"] ?? 0, "receive": 0], "_accord": .object(accord),
        ]
    }

    /// A recorded body as HAR text: JSON compactly, as recorded; a text body (recorded as a JSON
    /// string) as the text itself, with its `Content-Type` when recorded; nil when there is none.
    static func body(_ value: JSONValue, headers: JSONObject) -> (text: String, mimeType: String, isText: Bool)? {
        switch value {
        case .null: return nil
        case .string(let text):
            let type = headers.members.first { JSONObject.sameKey($0.key, "Content-Type") }?.value.stringValue
            return (text, type ?? "text/plain", true)
        default: return (CanonicalJSON.compact(value), "application/json", false)
        }
    }

    /// HAR's `queryString`: the query's pairs, decoded, in order.
    static func queryString(_ path: String) -> JSONValue {
        guard let question = path.firstIndex(of: "?") else { return [] }
        let query = path[path.index(after: question)...].prefix { $0 != "#" }
        return .array(
            query.split(separator: "&").map { pair in
                let equals = pair.firstIndex(of: "=") ?? pair.endIndex
                let value = equals < pair.endIndex ? pair[pair.index(after: equals)...] : ""
                return [
                    "name": .string(PercentEncoding.decoded(pair[..<equals], depth: 1)),
                    "value": .string(PercentEncoding.decoded(value, depth: 1)),
                ]
            })
    }

    /// HAR headers: one entry per value, names as recorded (a repeated field, recorded as an
    /// array, gives one entry per value in order).
    static func headers(_ object: JSONObject) -> JSONValue {
        .array(
            object.members.flatMap { member -> [JSONValue] in
                let values = member.value.arrayValue ?? [member.value]
                return values.map { ["name": .string(member.key), "value": .string($0.stringValue ?? CanonicalJSON.compact($0))] }
            })
    }

    /// The URL prefix for a recording's upstream: kept when it names a scheme, else `https://`.
    static func baseURL(_ upstream: String) -> String {
        var base = upstream.contains("://") ? upstream : "https://" + upstream
        while base.hasSuffix("/") { base.removeLast() }
        return base
    }
}

/// HAR's `startedDateTime`: ISO 8601 with milliseconds.
enum HARTime {
    static func parse(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime]
        return formatter.date(from: text)
    }

    /// The first and last instants written as they are: from the first Gregorian day (before
    /// it, Foundation's calendar counts Julian days, which ISO 8601 does not) to the last of
    /// the four-digit years.
    static let earliest = Date(timeIntervalSince1970: -12_219_292_800)
    static let latest = Date(timeIntervalSince1970: 253_402_300_799.999)

    /// The date in HAR's form, moved into `earliest...latest` when it lies outside (an absurd
    /// `at_ms` a recording may hold, which `_accord.at_ms` keeps exactly), so the output is
    /// always a valid ISO 8601 time.
    static func format(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.string(from: min(max(date, earliest), latest))
    }
}
