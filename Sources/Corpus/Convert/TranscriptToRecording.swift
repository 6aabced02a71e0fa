import JSON

/// Turns a transcript into a recording: each rpc step becomes one exchange numbered by its step
/// (so a replay's logical clock, set to the exchange number, gives the transcript's timestamps),
/// sent as the case's user and client or as the step's `caller`. A drop-ack fault becomes an
/// exchange with status 0 and a null response (the server applied it; the answer was lost).
/// Server, local, assert and transport-error steps have no wire form of their own and are not
/// recorded; the result lists them.
public enum TranscriptToRecording {
    /// A converted recording and the steps it could not carry.
    public struct Result: Sendable, Hashable {
        /// The recording.
        public var recording: RecordingContents
        /// Step numbers left out (not rpc steps), with their labels.
        public var omittedSteps: [(n: Int, label: String)]

        /// Compares the recordings and the omitted steps.
        /// - Parameters:
        ///   - lhs: one result.
        ///   - rhs: another.
        /// - Returns: whether they are equal.
        public static func == (lhs: Result, rhs: Result) -> Bool {
            lhs.recording == rhs.recording && lhs.omittedSteps.map(\.n) == rhs.omittedSteps.map(\.n)
        }

        /// Hashes the recording.
        public func hash(into hasher: inout Hasher) { hasher.combine(recording) }
    }

    /// The status of an exchange whose answer never reached the client (HAR's convention for "no
    /// response"): a drop-ack fault, whose request the server applied.
    public static let lostAnswer = 0

    /// The request headers every converted exchange carries (no credentials: a transcript has none).
    public static let requestHeaders: JSONObject = [
        "accept": "application/json", "content-profile": "kizunasync", "content-type": "application/json",
    ]

    /// Converts a transcript.
    /// - Parameters:
    ///   - transcript: the transcript.
    ///   - tool: the tool named in the header, e.g. "accord 0.1.0".
    ///   - startedAt: the header's start time (RFC 3339); conversions are deterministic, so the
    ///     caller chooses it.
    /// - Returns: the recording and the omitted steps.
    public static func convert(_ transcript: Transcript, tool: String, startedAt: String = "2026-01-01T00:00:00Z") -> Result {
        let header = RecordingHeader(
            tool: tool, startedAt: startedAt, upstream: "transcript.invalid",
            redaction: [
                "note": "converted from a transcript: no credentials were ever present", "transcript": .string(transcript.caseID),
            ])
        var exchanges: [RecordedExchange] = []
        var omitted: [(n: Int, label: String)] = []
        for step in transcript.steps {
            var exchange: RecordedExchange
            switch step.action {
            case .rpc(let rpc):
                exchange = RecordedExchange(
                    number: step.n, rpc: rpc.rpc.rawValue, request: rpc.request, response: rpc.response, status: rpc.status)
                exchange.user = rpc.caller?.user ?? transcript.context.userID
                exchange.client = rpc.caller?.client ?? transcript.context.clientID
            case .fault(let fault) where fault.fault == .dropAck && fault.request != nil:
                exchange = RecordedExchange(
                    number: step.n, rpc: fault.target.rawValue, request: fault.request ?? .null, response: .null, status: lostAnswer)
                exchange.user = transcript.context.userID
                exchange.client = transcript.context.clientID
            default:
                omitted.append((step.n, step.label))
                continue
            }
            exchange.atMilliseconds = Double(step.n)
            exchange.requestHeaders = requestHeaders
            exchange.responseHeaders = ["content-type": "application/json; charset=utf-8"]
            exchanges.append(exchange)
        }
        return Result(recording: RecordingContents(header: header, exchanges: exchanges), omittedSteps: omitted)
    }
}
