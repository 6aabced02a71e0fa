import Capture
import Corpus
import HTTP
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
        let route = PowerSyncSurface.route(atPath: request.path)
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
            ?? (route == nil ? nil : PowerSyncSurface.user(authorization: request.headers[PostgRESTSurface.Header.authorization])))
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
        return (exchange, exchange.encodedPieces(request: requestBody, response: responseBody))
    }

    static func milliseconds(_ duration: Duration) -> Double {
        let (seconds, attoseconds) = duration.components
        return Double(seconds) * 1000 + Double(attoseconds / 1_000_000_000_000) / 1000
    }
}
