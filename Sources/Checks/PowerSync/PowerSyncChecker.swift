import JSON
import PowerSyncWire

/// Runs the PowerSync decoding rule (PS-SHAPE) and every PS rule over one transcript's or
/// recording's events, in order.
public struct PowerSyncChecker: Sendable {
    private var rules: [any PowerSyncRule]
    /// How many events carried something a rule examined.
    public private(set) var examined = 0

    /// Starts a checker.
    /// - Parameter rules: the rules to run; the catalog's by default.
    public init(rules: [any PowerSyncRule.Type] = RuleCatalog.powerSyncTraceRules) {
        self.rules = rules.map { $0.init() }
    }

    /// Checks one event.
    /// - Parameter event: the event.
    /// - Returns: the findings at this event, in rule order.
    public mutating func observe(_ event: PowerSyncEvent) -> [Finding] {
        var findings: [Finding] = []
        let location = event.location
        let decoded: PowerSyncExchange?
        switch event.payload {
        case .streamOpened(let request):
            examined += 1
            decoded = .streamOpened(
                Self.decode(side: "request", at: location, into: &findings) { () throws(PowerSyncWireError) in
                    try SyncStreamRequest(json: request)
                })
        case .line(let line):
            examined += 1
            decoded = Self.decode(side: nil, at: location, into: &findings) { () throws(PowerSyncWireError) in try SyncLine(json: line) }
                .map(PowerSyncExchange.line)
        case .streamClosed:
            decoded = .streamClosed
        case .checkpointRequest(let request, let response):
            examined += 1
            decoded = Self.decode(
                request, response, at: location, into: &findings, CheckpointRequest.init(json:at:), CheckpointRequestAnswer.init(json:at:)
            )
            .map { .checkpointRequest($0, $1) }
        case .writeCheckpoint(let request, let response):
            examined += 1
            decoded = Self.decode(
                request, response, at: location, into: &findings, WriteCheckpointRequest.init(json:at:),
                WriteCheckpointAnswer.init(json:at:)
            )
            .map { .writeCheckpoint($0, $1) }
        case .held(let client, let id):
            decoded = OpID.parse(id).map { .held(clientID: client, id: $0) }
        }
        guard let decoded else { return findings }
        for index in rules.indices { rules[index].observe(decoded, at: location, into: &findings) }
        return findings
    }

    /// Decodes a request and its response, each failure a PS-SHAPE finding under its side.
    /// - Returns: both, or nil when either does not decode.
    private static func decode<Request, Answer>(
        _ request: JSONValue, _ response: JSONValue, at location: StepLocation, into findings: inout [Finding],
        _ readRequest: (JSONValue, JSONPointer) throws(PowerSyncWireError) -> Request,
        _ readAnswer: (JSONValue, JSONPointer) throws(PowerSyncWireError) -> Answer
    ) -> (Request, Answer)? {
        let decodedRequest = decode(side: "request", at: location, into: &findings) { () throws(PowerSyncWireError) in
            try readRequest(request, .root)
        }
        let decodedAnswer = decode(side: "response", at: location, into: &findings) { () throws(PowerSyncWireError) in
            try readAnswer(response, .root)
        }
        guard let decodedRequest, let decodedAnswer else { return nil }
        return (decodedRequest, decodedAnswer)
    }

    /// Decodes one value, turning a failure into a PS-SHAPE finding whose pointer is under
    /// `side` ("request" or "response"), or relative to the line when `side` is nil.
    private static func decode<Value>(
        side: String?, at location: StepLocation, into findings: inout [Finding], _ body: () throws(PowerSyncWireError) -> Value
    ) -> Value? {
        do throws(PowerSyncWireError) {
            return try body()
        } catch {
            let pointer = side.map { JSONPointer(tokens: [$0]).appending(error.pointer) } ?? error.pointer
            findings.append(Finding("PS-SHAPE", at: location, pointer: pointer, "\(error.protocolCode): \(error.detail)"))
            return nil
        }
    }
}
