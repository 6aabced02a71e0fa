import JSON
import PowerSyncWire

extension PowerSync {
    /// The PowerSync profile of the rules: a trace event is a stream's opening, line or end, a write
    /// checkpoint, a checkpoint request or a held id, decoded strictly into a `PowerSync.Trace.Observation`
    /// (what does not decode is a PS-SHAPE finding); one session, since the PS rules follow each
    /// client themselves.
    public enum Trace: RuleProfile {
        /// PowerSync's rules take no settings.
        public typealias Settings = Void

        /// The catalog's PS rule folds, in the order they run.
        public static var rules: [any Rule<Self>.Type] { RuleCatalog.powerSyncTraceRules }

        /// Reads one event for the rules (`RuleProfile.read`).
        public static func read(_ event: PowerSync.Trace.Event, at location: StepLocation, into findings: inout [Finding]) -> (
            session: String, observation: PowerSync.Trace.Observation
        )? {
            let decoded: PowerSync.Trace.Observation?
            switch event.payload {
            case .streamOpened(let request):
                decoded = .streamOpened(
                    decode(side: "request", at: location, into: &findings) { () throws(PowerSync.ShapeError) in
                        try SyncStreamRequest(json: request)
                    })
            case .line(let line):
                decoded = decode(side: nil, at: location, into: &findings) { () throws(PowerSync.ShapeError) in try SyncLine(json: line) }
                    .map(PowerSync.Trace.Observation.line)
            case .streamClosed:
                decoded = .streamClosed
            case .checkpointRequest(let request, let response):
                decoded = decode(
                    request, response, at: location, into: &findings, CheckpointRequest.init(json:at:),
                    CheckpointRequestAnswer.init(json:at:)
                )
                .map { .checkpointRequest($0, $1) }
            case .writeCheckpoint(let request, let response):
                decoded = decode(
                    request, response, at: location, into: &findings, WriteCheckpointRequest.init(json:at:),
                    WriteCheckpointAnswer.init(json:at:)
                )
                .map { .writeCheckpoint($0, $1) }
            case .held(let client, let id):
                decoded = OpID.parse(id).map { .held(clientID: client, id: $0) }
            }
            // PowerSync's rules follow each client themselves (PS-REQUEST-ID, PS-WRITE-CHECKPOINT): one session.
            return decoded.map { ("", $0) }
        }

        /// Whether an event is an exchange or line the rules examine.
        public static func examines(_ event: PowerSync.Trace.Event) -> Bool {
            switch event.payload {
            case .streamOpened, .line, .checkpointRequest, .writeCheckpoint: true
            case .streamClosed, .held: false
            }
        }

        /// Where an event is.
        public static func location(of event: PowerSync.Trace.Event) -> StepLocation { event.location }

        private static func decode<Request, Answer>(
            _ request: JSONValue, _ response: JSONValue, at location: StepLocation, into findings: inout [Finding],
            _ readRequest: (JSONValue, JSONPointer) throws(PowerSync.ShapeError) -> Request,
            _ readAnswer: (JSONValue, JSONPointer) throws(PowerSync.ShapeError) -> Answer
        ) -> (Request, Answer)? {
            let decodedRequest = decode(side: "request", at: location, into: &findings) { () throws(PowerSync.ShapeError) in
                try readRequest(request, .root)
            }
            let decodedAnswer = decode(side: "response", at: location, into: &findings) { () throws(PowerSync.ShapeError) in
                try readAnswer(response, .root)
            }
            guard let decodedRequest, let decodedAnswer else { return nil }
            return (decodedRequest, decodedAnswer)
        }

        /// Decodes one value, turning a failure into a PS-SHAPE finding whose pointer is under
        /// `side` ("request" or "response"), or relative to the line when `side` is nil.
        private static func decode<Value>(
            side: String?, at location: StepLocation, into findings: inout [Finding], _ body: () throws(PowerSync.ShapeError) -> Value
        ) -> Value? {
            do throws(PowerSync.ShapeError) {
                return try body()
            } catch {
                let pointer = side.map { JSONPointer(tokens: [$0]).appending(error.pointer) } ?? error.pointer
                findings.append(Finding("PS-SHAPE", at: location, pointer: pointer, "\(error.protocolCode): \(error.detail)"))
                return nil
            }
        }
    }
}
