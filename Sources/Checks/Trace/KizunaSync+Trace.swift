import Corpus
import JSON
import KizunaWire

extension KizunaSync {
    /// The KizunaSync profile of the rules: a trace event is an exchange (decoded strictly into a
    /// `DecodedExchange`, its decoding failures findings) or a set of client-state checks, and each
    /// client has its own session of folds.
    public enum Trace: RuleProfile {
        /// A fold starts from the trace's server settings.
        public typealias Settings = TraceSettings

        /// The catalog's trace rules, in the order they run.
        public static var rules: [any Rule<Self>.Type] { RuleCatalog.traceRules }

        /// What a KizunaSync rule observes.
        public enum Observation: Sendable {
            case exchange(DecodedExchange)
            case checks([Check])
        }

        /// Reads one event for the rules (`RuleProfile.read`).
        public static func read(_ event: KizunaSync.Trace.Event, at location: StepLocation, into findings: inout [Finding]) -> (
            session: String, observation: Observation
        )? {
            switch event.payload {
            case .other: return nil
            case .checks(let checks): return (event.client, .checks(checks))
            case .exchange(let rpc, let request, let response):
                guard let decoded = decode(rpc, request: request, response: response, at: location, into: &findings) else { return nil }
                return (event.client, .exchange(decoded))
            }
        }

        /// Whether an event is an exchange or line the rules examine.
        public static func examines(_ event: KizunaSync.Trace.Event) -> Bool {
            if case .exchange = event.payload { return true }
            return false
        }

        /// Where an event is.
        public static func location(of event: KizunaSync.Trace.Event) -> StepLocation { event.location }

        /// Decodes an exchange strictly, turning a decoding failure into a finding of the decoding
        /// rule it breaks (I-2 shape, or a closed set: AC-OP, AC-REASON, AC-SIGNAL, AC-VERDICT-KIND).
        /// - Parameters:
        ///   - rpc: which RPC.
        ///   - request: the request body.
        ///   - response: the response body.
        ///   - location: where it is.
        ///   - findings: where a decoding failure goes.
        /// - Returns: the decoded exchange, or nil when either side failed to decode.
        public static func decode(
            _ rpc: RPCKind, request: JSONValue, response: JSONValue, at location: StepLocation, into findings: inout [Finding]
        ) -> DecodedExchange? {
            let requestRoot = JSONPointer(tokens: ["request"])
            let responseRoot = JSONPointer(tokens: ["response"])
            do throws(WireError) {
                switch rpc {
                case .pull:
                    let decodedRequest: PullRequest
                    do throws(WireError) { decodedRequest = try PullRequest(json: request, at: requestRoot) } catch {
                        findings.append(DecodingRules.finding(for: error, side: "request", at: location))
                        return nil
                    }
                    return .pull(decodedRequest, try PullResponse(json: response, at: responseRoot))
                case .push:
                    let decodedRequest: PushRequest
                    do throws(WireError) { decodedRequest = try PushRequest(json: request, at: requestRoot) } catch {
                        findings.append(DecodingRules.finding(for: error, side: "request", at: location))
                        return nil
                    }
                    return .push(decodedRequest, try PushResponse(json: response, at: responseRoot))
                }
            } catch {
                findings.append(DecodingRules.finding(for: error, side: "response", at: location))
                return nil
            }
        }
    }
}
