import Corpus
import JSON
import KizunaWire

extension KizunaSync.Trace {
    /// One event of a trace: an exchange, a set of client-state checks, or a step no offline rule
    /// reads.
    public struct Event: Sendable {
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
        public init(location: StepLocation, client: String, payload: Payload) {
            self.location = location
            self.client = client
            self.payload = payload
        }

        /// The events of a transcript's steps, in order.
        /// - Returns: one event per step.
        public static func events(of transcript: Transcript) -> [Event] {
            transcript.steps.map { step in
                let location = StepLocation(number: step.n, label: step.label)
                switch step.action {
                case .rpc(let exchange) where !exchange.isAnswer:
                    return Event(location: location, client: transcript.context.clientID, payload: .other)
                case .rpc(let exchange):
                    return Event(
                        location: location, client: exchange.caller?.client ?? transcript.context.clientID,
                        payload: .exchange(exchange.rpc, request: exchange.request, response: exchange.response))
                case .assert(let checks):
                    return Event(location: location, client: transcript.context.clientID, payload: .checks(checks))
                default:
                    return Event(location: location, client: transcript.context.clientID, payload: .other)
                }
            }
        }

        /// The event for a recorded exchange: pull and push exchanges answered 2xx are exchanges;
        /// anything else (other paths, PostgREST errors) is `.other`.
        /// - Parameter exchange: the recorded exchange.
        /// - Returns: the event.
        public static func event(of exchange: RecordedExchange) -> Event {
            let location = StepLocation(number: exchange.number, label: exchange.rpc, unit: .exchange, line: exchange.line)
            let client = exchange.client ?? exchange.request["client_id"]?.stringValue ?? "(unknown client)"
            guard let rpc = RPCKind(rawValue: exchange.rpc), (200..<300).contains(exchange.status) else {
                return Event(location: location, client: client, payload: .other)
            }
            return Event(
                location: location, client: client, payload: .exchange(rpc, request: exchange.request, response: exchange.response))
        }
    }
}
