import Corpus
import KizunaWire

/// One event of a trace: an exchange, a set of client-state checks, or a step no offline rule
/// reads.
public struct TraceEvent: Sendable {
    /// What happened.
    public enum Payload: Sendable {
        /// A pull or push with its request and response bodies.
        case exchange(RPCKind, request: JSONValue, response: JSONValue)
        /// Client-state checks (an assert step).
        case checks([Check])
        /// A setup or fault step: nothing for the offline rules.
        case other
    }

    /// Where it happened.
    public var location: StepLocation
    /// The client whose session it belongs to; rules keep state per client.
    public var client: String
    /// What happened.
    public var payload: Payload

    /// Makes an event.
    /// - Parameters:
    ///   - location: where.
    ///   - client: the client.
    ///   - payload: what.
    public init(location: StepLocation, client: String, payload: Payload) {
        self.location = location
        self.client = client
        self.payload = payload
    }

    /// The events of a transcript's steps, in order.
    /// - Parameter transcript: the transcript.
    /// - Returns: one event per step.
    public static func events(of transcript: Transcript) -> [TraceEvent] {
        transcript.steps.map { step in
            let location = StepLocation(number: step.n, label: step.label)
            switch step.action {
            case .rpc(let exchange):
                return TraceEvent(
                    location: location, client: transcript.context.clientID,
                    payload: .exchange(exchange.rpc, request: exchange.request, response: exchange.response))
            case .assert(let checks):
                return TraceEvent(location: location, client: transcript.context.clientID, payload: .checks(checks))
            default:
                return TraceEvent(location: location, client: transcript.context.clientID, payload: .other)
            }
        }
    }

    /// The event for a recorded exchange: pull and push exchanges answered 2xx are exchanges;
    /// anything else (other paths, PostgREST errors) is `.other`.
    /// - Parameter exchange: the recorded exchange.
    /// - Returns: the event.
    public static func event(of exchange: RecordedExchange) -> TraceEvent {
        let location = StepLocation(number: exchange.number, label: exchange.rpc, unit: .exchange, line: exchange.line)
        let client = exchange.client ?? exchange.request["client_id"]?.stringValue ?? "(unknown client)"
        guard let rpc = RPCKind(rawValue: exchange.rpc), (200..<300).contains(exchange.status) else {
            return TraceEvent(location: location, client: client, payload: .other)
        }
        return TraceEvent(location: location, client: client, payload: .exchange(rpc, request: exchange.request, response: exchange.response))
    }
}

/// What the rules need to know about the trace as a whole.
public struct TraceSettings: Sendable, Hashable {
    /// The fencing mechanism; "visibility-horizon" lets a page re-deliver a hole of its request token.
    public var fencing: String
    /// The server's declared scan cap, when the trace declares one.
    public var scanCap: Int?
    /// The page size a pull without `limit` gets.
    public var defaultLimit: Int

    /// Makes settings.
    /// - Parameters:
    ///   - fencing: the fencing mechanism.
    ///   - scanCap: the declared scan cap.
    ///   - defaultLimit: the default page size.
    public init(fencing: String = "shared", scanCap: Int? = nil, defaultLimit: Int = 500) {
        self.fencing = fencing
        self.scanCap = scanCap
        self.defaultLimit = defaultLimit
    }

    /// The settings a transcript declares.
    /// - Parameter transcript: the transcript.
    /// - Returns: its settings.
    public static func of(_ transcript: Transcript) -> TraceSettings {
        TraceSettings(fencing: transcript.fencing, scanCap: transcript.context.server.maxPullScan)
    }

    /// The settings for live traffic: holes may be re-delivered, no scan cap is assumed.
    public static let live = TraceSettings(fencing: "visibility-horizon", scanCap: nil)
}

/// An exchange whose request and response decoded strictly.
public enum DecodedExchange: Sendable {
    /// A pull.
    case pull(PullRequest, PullResponse)
    /// A push.
    case push(PushRequest, PushResponse)
}
