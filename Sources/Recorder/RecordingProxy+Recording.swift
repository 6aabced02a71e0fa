import Capture
import Corpus
import HTTP
import JSON
import KizunaWire
import PowerSyncWire

extension RecordingProxy {
    /// The exchange as recorded, encoded: identity from the JWT (unverified), rpc kind from the
    /// path (KizunaSync's RPCs or PowerSync's routes), bodies as JSON when they parse, a
    /// PowerSync sync stream's 2xx answer as the array of its NDJSON lines, redacted headers,
    /// query and bodies. Notes about the exchange (an error, a truncated body, a stream cut
    /// mid-line) go in response header fields named `:accord-…`.
    func encodedExchange(_ capture: ExchangeCapture) -> (exchange: RecordedExchange, encoded: [[UInt8]]) {
        let request = capture.request
        let route = PowerSync.Surface.route(atPath: request.path)
        let rpc = PostgRESTSurface.rpc(atPath: request.path) ?? route?.rawValue ?? "http"
        let identity = PostgRESTSurface.bearerIdentity(authorization: request.headers[PostgRESTSurface.Header.authorization])
        let (requestBody, clientID) = redactor.encodedBody(
            request.body, contentEncoding: request.headers["Content-Encoding"], complete: true,
            capturing: identity.client == nil ? "client_id" : nil)
        let responseEncoding = capture.headers.first { HTTPHeaders.sameName($0.name, "Content-Encoding") }?.value
        // An answer cut by an error (the client gone, the upstream reset) is a prefix too.
        let complete = capture.body.count == capture.total && !capture.cut
        let responseBody: [UInt8]
        var cutLine: NDJSONLines.Cut?
        var lineArrivals: [Double]?
        if let route, route.answersNDJSON, (200..<300).contains(capture.status) {
            (responseBody, cutLine) = redactor.encodedNDJSON(capture.body, contentEncoding: responseEncoding, complete: complete)
            if responseEncoding.map({ $0.lowercased() == "identity" }) ?? true {
                // A line has arrived with the piece that holds its end (its LF); lines and pieces
                // are both in byte order, so one walk pairs them.
                var piece = capture.arrivals.startIndex
                lineArrivals = NDJSONLines(capture.body, ended: complete).lines.map { line in
                    while piece < capture.arrivals.endIndex, capture.arrivals[piece].end <= line.upperBound { piece += 1 }
                    let arrival = piece < capture.arrivals.endIndex ? capture.arrivals[piece] : capture.arrivals.last
                    return Self.milliseconds((arrival?.at ?? capture.begin) - started)
                }
            }
        } else {
            (responseBody, _) = redactor.encodedBody(capture.body, contentEncoding: responseEncoding, complete: complete)
        }

        var exchange = RecordedExchange(number: 0, rpc: rpc, request: .null, response: .null, status: capture.status)
        exchange.method = request.method
        exchange.path = redactor.url(request.query.map { "\(request.path)?\($0)" } ?? request.path)
        exchange.atMilliseconds = Self.milliseconds(capture.begin - started)
        exchange.durationMilliseconds = Self.milliseconds(capture.duration)
        exchange.lineMilliseconds = lineArrivals
        // Redacted as the bodies are: a JWT-shaped client_id gets the body's placeholder.
        exchange.user =
            (identity.user
            ?? (route == nil ? nil : PowerSync.Surface.user(authorization: request.headers[PostgRESTSurface.Header.authorization])))
            .map(redactor.text)
        exchange.client = (identity.client ?? clientID).map(redactor.text)
        exchange.requestHeaders = redactor.headers(RecordedExchange.headerObject(request.headers.map { ($0.name, $0.value) }))
        var responseHeaders = redactor.headers(RecordedExchange.headerObject(capture.headers))
        if !complete {
            responseHeaders[":accord-truncated"] = .string("recorded the first \(capture.body.count) of \(capture.total) body bytes")
        }
        if let cutLine { responseHeaders[":accord-ndjson-cut"] = .string(Redactor.ndjsonCutNote(cutLine)) }
        if let note = capture.note { responseHeaders[":accord-error"] = .string(note) }
        exchange.responseHeaders = responseHeaders
        return fitted(exchange, request: requestBody, response: responseBody)
    }

    /// The exchange's pieces, its bodies left out, largest first, while its line would be longer
    /// than `recordedLineLimit` (by default the longest a recording's readers take without
    /// `--max-line`): text escaped into JSON grows up to six times (a 32 MiB body of control
    /// characters is a 192 MiB string), so the body limits alone do not bound a line. A body left
    /// out is a string saying its encoded size, and `:accord-not-recorded` says why.
    func fitted(_ exchange: RecordedExchange, request: [UInt8], response: [UInt8]) -> (exchange: RecordedExchange, encoded: [[UInt8]]) {
        var exchange = exchange
        var bodies = (request: request, response: response)
        var pieces = exchange.encodedPieces(request: bodies.request, response: bodies.response)
        // The writer adds `{"exchange":N,` (at most `prefixCapacity` bytes) and a newline.
        let limit = configuration.recordedLineLimit - RecordingWriter.prefixCapacity - 1
        func length() -> Int { pieces.reduce(0) { $0 + $1.count } }
        guard length() > limit else { return (exchange, pieces) }
        var notes: [String] = []
        let order: [Bool] = bodies.response.count >= bodies.request.count ? [true, false] : [false, true]
        for isResponse in order where length() > limit {
            let size = isResponse ? bodies.response.count : bodies.request.count
            var placeholder: [UInt8] = []
            CanonicalJSON.appendString("<\(size) bytes once encoded, over the recorded line limit, not recorded>", to: &placeholder)
            if isResponse {
                bodies.response = placeholder
                // Arrival times of lines that are not in the recording say nothing.
                exchange.lineMilliseconds = nil
            } else {
                bodies.request = placeholder
            }
            notes.append("the \(isResponse ? "response" : "request") body (\(size) bytes once encoded)")
            exchange.responseHeaders[":accord-not-recorded"] = .string(
                notes.joined(separator: " and ") + " would make a line longer than the \(configuration.recordedLineLimit) bytes "
                    + "a recording's readers take by default")
            pieces = exchange.encodedPieces(request: bodies.request, response: bodies.response)
        }
        return (exchange, pieces)
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds / 1_000_000_000_000) / 1000
    }
}
