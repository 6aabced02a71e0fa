import Corpus
import Foundation
import JSON
import KizunaWire
import PowerSyncWire

/// Turns a HAR 1.2 log into a recording. Entries become exchanges in order: the rpc from the
/// URL path (`…/rpc/pull`, `…/rpc/push`, PowerSync's `…/sync/stream`,
/// `…/sync/checkpoint-request` and `…/write-checkpoint2.json`, else `http`), bodies from
/// `postData.text` and `content.text` (JSON when they parse, else text; a sync stream's 2xx
/// NDJSON answer split into its lines, `+NDJSON.swift`), header names as written, and the identity
/// from the entry's `_accord` member or, failing that, the unverified claims of its bearer JWT
/// (`sub`, `session_id`). Everything passes the recorder's `Redactor`: a HAR saved from a
/// browser holds credentials in headers, URLs and bodies, and none of them reaches the recording.
public enum HARImport {
    /// Refuses an object of the HAR's structure that repeats a key, naming it.
    static func refuseRepeatedKey(_ value: JSONValue?, at pointer: JSONPointer, file: String) throws(CorpusError) {
        guard let object = value?.objectValue, let repeated = object.firstDuplicateKey else { return }
        throw CorpusError.grammar(file, at: pointer.appending(repeated), "the HAR repeats the key \"\(repeated)\"")
    }

    /// Reads a HAR document.
    /// - Parameters:
    ///   - json: the parsed HAR file.
    ///   - file: the file name, for messages.
    ///   - tool: the tool named in the header when the HAR carries none.
    ///   - redactor: the redactor every header, URL and body passes; by default one with the
    ///     HAR's own policy (`policy(of:)`).
    /// - Returns: the recording.
    /// - Throws: `CorpusError` naming the pointer of what is not HAR.
    public static func recording(from json: JSONValue, file: String, tool: String, redactor: Redactor? = nil) throws(CorpusError)
        -> RecordingContents
    {
        let redactor = redactor ?? Redactor(policy: policy(of: json))
        // A repeated key is read one way here and another way by the next tool (the first
        // `entries`, or the last, or none): refused rather than guessed.
        try refuseRepeatedKey(json, at: .root, file: file)
        try refuseRepeatedKey(json["log"], at: JSONPointer(tokens: ["log"]), file: file)
        guard let log = json["log"], let entries = log["entries"]?.arrayValue else {
            throw CorpusError.grammar(file, at: JSONPointer(tokens: ["log", "entries"]), "not a HAR log: no log.entries array")
        }
        var exchanges: [RecordedExchange] = []
        var firstStart: Date?
        for (index, entry) in entries.enumerated() {
            let at = JSONPointer(tokens: ["log", "entries", String(index)])
            try refuseRepeatedKey(entry, at: at, file: file)
            for part in ["request", "response"] { try refuseRepeatedKey(entry[part], at: at.appending(part), file: file) }
            guard let request = entry["request"], let response = entry["response"], let url = request["url"]?.stringValue else {
                throw CorpusError.grammar(file, at: at, "a HAR entry has request.url and response")
            }
            let accord = entry["_accord"]
            let path = accord?["path"]?.stringValue ?? pathOf(url)
            let rpc = accord?["rpc"]?.stringValue ?? rpcOf(path)
            let body = parsedBody(request["postData"]?["text"]?.stringValue, text: accord?["request_text"]?.boolValue == true)
            let status = response["status"]?.numberValue?.intValue ?? 0
            let answerText = decodedText(response["content"])
            let answer =
                ndjsonAnswer(answerText, rpc: rpc, status: status)
                ?? parsedBody(answerText, text: accord?["response_text"]?.boolValue == true)
            var exchange = RecordedExchange(
                number: index + 1, rpc: rpc, request: redactor.json(body), response: redactor.json(answer), status: status)
            if let number = accord?["exchange"]?.numberValue?.intValue, number > (exchanges.last?.number ?? 0) { exchange.number = number }
            if let previous = exchanges.last, exchange.number <= previous.number { exchange.number = previous.number + 1 }
            exchange.method = request["method"]?.stringValue ?? "POST"
            exchange.path = redactor.url(path)
            exchange.requestHeaders = redactor.headers(headerObject(request["headers"]))
            exchange.responseHeaders = redactor.headers(headerObject(response["headers"]))
            exchange.durationMilliseconds = try milliseconds(entry["time"], file: file, at: at.appending("time")) ?? 0
            let started = entry["startedDateTime"]?.stringValue.flatMap(HARTime.parse)
            if firstStart == nil { firstStart = started }
            exchange.atMilliseconds =
                try milliseconds(accord?["at_ms"], file: file, at: at.appending("_accord").appending("at_ms"))
                ?? started.flatMap { date in firstStart.map { date.timeIntervalSince($0) * 1000 } } ?? 0
            if let member = accord?["line_ms"] {
                let pointer = at.appending("_accord").appending("line_ms")
                guard let arrivals = member.arrayValue else {
                    throw CorpusError.grammar(file, at: pointer, "expected an array of milliseconds, one a stream line")
                }
                var read: [Double] = []
                for (index, value) in arrivals.enumerated() {
                    guard let milliseconds = try milliseconds(value, file: file, at: pointer.appending(index)) else {
                        throw CorpusError.grammar(file, at: pointer.appending(index), "expected a number of milliseconds")
                    }
                    read.append(milliseconds)
                }
                guard read.count == exchange.response.arrayValue?.count else {
                    throw CorpusError.grammar(file, at: pointer, "expected one arrival per line of the stream, found \(read.count)")
                }
                exchange.lineMilliseconds = read
            }
            if let identity = accord?["identity"] {
                exchange.user = identity["user"]?.stringValue
                exchange.client = identity["client"]?.stringValue
            } else {
                let identity = bearerIdentity(request["headers"])
                exchange.user = identity.user ?? (PowerSync.Surface.route(kind: rpc) == nil ? nil : powerSyncUser(request["headers"]))
                exchange.client = body["client_id"]?.stringValue ?? identity.client
            }
            exchanges.append(exchange)
        }
        let header: RecordingHeader
        if let recorded = log["_accord"], let read = try? RecordingHeader(json: recorded) {
            header = read
        } else {
            let first = entries.first?["request"]?["url"]?.stringValue ?? ""
            // A browser's HAR of a PowerSync session names the profile its routes show.
            let powerSync = exchanges.contains { PowerSync.Surface.route(kind: $0.rpc) != nil }
            header = RecordingHeader(
                protocolName: (powerSync ? CorpusProfile.powerSync : .kizunaSync).rawValue, tool: tool,
                startedAt: entries.first?["startedDateTime"]?.stringValue ?? "1970-01-01T00:00:00Z", upstream: originOf(first),
                redaction: redactor.policy.json)
        }
        return RecordingContents(header: header, exchanges: exchanges)
    }

    /// The policy a HAR's content is redacted with: the one its `log._accord` header states when
    /// accord wrote it (so `--keep` names stay kept), else the defaults.
    /// - Parameter json: the parsed HAR file.
    public static func policy(of json: JSONValue) -> RedactionPolicy {
        RedactionPolicy(recorded: json["log"]?["_accord"]?["redaction"] ?? .null)
    }

    /// A body's text as recorded: JSON when it parses (unless the entry says it was text), else
    /// the text itself; null when absent or empty.
    static func parsedBody(_ text: String?, text isText: Bool) -> JSONValue {
        guard let text, !text.isEmpty else { return .null }
        if !isText, let value = try? JSONParser.parse(text) { return value }
        return .string(text)
    }

    /// A number of milliseconds, or nil when absent or not a number.
    /// - Throws: `CorpusError` at `pointer` for a number a recording cannot hold.
    static func milliseconds(_ value: JSONValue?, file: String, at pointer: JSONPointer) throws(CorpusError) -> Double? {
        guard let literal = value?.numberValue?.literal, let milliseconds = Double(literal) else { return nil }
        guard RecordedExchange.isRecordable(milliseconds: milliseconds) else {
            throw CorpusError.grammar(file, at: pointer, "expected \(RecordedExchange.recordableMilliseconds), found \(literal)")
        }
        return milliseconds
    }

    /// HAR headers as a recording holds them (`RecordedExchange.headerObject(_:)`).
    static func headerObject(_ headers: JSONValue?) -> JSONObject {
        RecordedExchange.headerObject(
            (headers?.arrayValue ?? []).compactMap { header in
                header["name"]?.stringValue.map { ($0, header["value"]?.stringValue ?? "") }
            })
    }

    /// The user and client of an `Authorization: Bearer` JWT among HAR headers, unverified.
    static func bearerIdentity(_ headers: JSONValue?) -> PostgRESTSurface.BearerIdentity {
        let authorization = headers?.arrayValue?.first { $0["name"]?.stringValue?.lowercased() == "authorization" }
        return PostgRESTSurface.bearerIdentity(authorization: authorization?["value"]?.stringValue)
    }

    /// The user of a PowerSync `Authorization: Token <jwt>` among HAR headers, unverified.
    static func powerSyncUser(_ headers: JSONValue?) -> String? {
        let authorization = headers?.arrayValue?.first { $0["name"]?.stringValue?.lowercased() == "authorization" }
        return PowerSync.Surface.user(authorization: authorization?["value"]?.stringValue)
    }

    /// A response's `content.text`, decoded when HAR says it is base64 (`content.encoding`), as
    /// Charles, Proxyman and browsers save some bodies: redaction must see what was sent.
    static func decodedText(_ content: JSONValue?) -> String? {
        guard let text = content?["text"]?.stringValue else { return nil }
        guard content?["encoding"]?.stringValue?.lowercased() == "base64" else { return text }
        guard let data = Data(base64Encoded: text, options: .ignoreUnknownCharacters) else {
            return "<\(text.utf8.count) characters of base64 that do not decode, not recorded>"
        }
        return String(validating: [UInt8](data), as: UTF8.self) ?? "<\(data.count) bytes, not UTF-8, not recorded>"
    }

    /// The request target of a URL: from the first `/`, `?` or `#` after its authority.
    static func pathOf(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return url }
        let rest = url[scheme.upperBound...]
        guard let end = rest.firstIndex(where: { $0 == "/" || $0 == "?" || $0 == "#" }) else { return "/" }
        let target = rest[end...]
        return target.first == "/" ? String(target) : "/" + target
    }

    /// A URL's origin, scheme, host and port only (no userinfo, path or query), for the
    /// recording header's upstream.
    static func originOf(_ url: String) -> String {
        guard let scheme = url.range(of: "://") else { return "unknown" }
        let authority = url[scheme.upperBound...].prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        let host = authority.split(separator: "@", omittingEmptySubsequences: false).last ?? ""
        return "\(url[..<scheme.upperBound])\(host)"
    }

    static func rpcOf(_ path: String) -> String {
        PostgRESTSurface.rpc(inCapturedPath: path) ?? PowerSync.Surface.route(inCapturedPath: path)?.rawValue ?? "http"
    }
}
