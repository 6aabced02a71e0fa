import Corpus
import HTTP
import KizunaWire

extension RecordingProxy {
    /// The exchange as recorded: identity from the JWT (unverified), rpc kind from the path,
    /// bodies as JSON when they parse, redacted headers, query and bodies. Notes about the
    /// exchange (an error, a truncated body) go in response header fields named `:accord-…`.
    func recordedExchange(_ capture: ExchangeCapture) -> RecordedExchange {
        let request = capture.request
        let rpc: String
        switch request.path {
        case "/rest/v1/rpc/pull": rpc = "pull"
        case "/rest/v1/rpc/push": rpc = "push"
        default: rpc = "http"
        }
        let requestEncoding = request.headers["Content-Encoding"]
        let (requestBody, parsedRequest) = body(request.body, encoding: requestEncoding, complete: true)
        let responseEncoding = capture.headers.first { $0.name.lowercased() == "content-encoding" }?.value
        let complete = capture.body.count == capture.total
        let (responseBody, _) = body(capture.body, encoding: responseEncoding, complete: complete)

        var exchange = RecordedExchange(number: 0, rpc: rpc, request: requestBody, response: responseBody, status: capture.status)
        exchange.method = request.method
        exchange.path = request.query.map { "\(request.path)?\(redactor.query($0))" } ?? request.path
        exchange.atMilliseconds = Self.milliseconds(capture.begin - started)
        exchange.durationMilliseconds = Self.milliseconds(capture.duration)
        let identity = Self.identity(request.headers["Authorization"])
        exchange.user = identity.user
        exchange.client = identity.client ?? parsedRequest?.objectValue?["client_id"]?.stringValue
        exchange.requestHeaders = headerObject(request.headers.map { ($0.name, $0.value) })
        var responseHeaders = headerObject(capture.headers)
        if !complete {
            responseHeaders[":accord-truncated"] = .string("recorded the first \(capture.body.count) of \(capture.total) body bytes")
        }
        if let note = capture.note { responseHeaders[":accord-error"] = .string(note) }
        exchange.responseHeaders = responseHeaders
        return exchange
    }

    /// A body as recorded, and the parsed JSON before redaction (for the identity).
    private func body(_ bytes: [UInt8], encoding: String?, complete: Bool) -> (JSONValue, JSONValue?) {
        if bytes.isEmpty { return (.null, nil) }
        if let encoding, encoding.lowercased() != "identity" {
            return (.string("<\(bytes.count) bytes, content-encoding \(encoding), not recorded>"), nil)
        }
        if complete, let parsed = try? JSONParser.parse(bytes) { return (redactor.json(parsed), parsed) }
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return (.string("<\(bytes.count) bytes, not UTF-8, not recorded>"), nil)
        }
        return (.string(redactor.text(text)), nil)
    }

    /// Header fields as a JSON object, redacted; a repeated name becomes an array of values.
    private func headerObject(_ fields: [(String, String)]) -> JSONObject {
        var object = JSONObject()
        for (name, value) in fields {
            let redacted = JSONValue.string(redactor.header(name: name, value: value))
            switch object[name] {
            case .none: object[name] = redacted
            case .array(let values)?: object[name] = .array(values + [redacted])
            case let single?: object[name] = .array([single, redacted])
            }
        }
        return object
    }

    /// The user (`sub`) and client (`session_id`) of a bearer JWT, read without verifying it.
    static func identity(_ authorization: String?) -> (user: String?, client: String?) {
        guard let authorization, let space = authorization.firstIndex(of: " "),
            authorization[..<space].lowercased() == "bearer"
        else { return (nil, nil) }
        let token = authorization[authorization.index(after: space)...].split(separator: ".", omittingEmptySubsequences: false)
        guard token.count == 3, let payload = Base64URL.decode(token[1]), let claims = try? JSONParser.parse(payload),
            let object = claims.objectValue
        else { return (nil, nil) }
        return (object["sub"]?.stringValue, object["session_id"]?.stringValue)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds / 1_000_000_000_000) / 1000
    }
}
