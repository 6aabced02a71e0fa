import Corpus
import JSON
import KizunaWire

/// Runs the decoding rules and every trace rule over a trace, keeping one fold per client.
public struct TraceChecker: Sendable {
    private let settings: TraceSettings
    private let ruleTypes: [any TraceRule.Type]
    private var sessions: [String: [any TraceRule]] = [:]
    /// How many events carried something a rule examined, by step: an exchange, or checks a rule reads.
    public private(set) var examinedExchanges = 0

    /// Starts a checker.
    /// - Parameters:
    ///   - settings: the trace's settings.
    ///   - rules: the trace rules to run; the catalog's by default.
    public init(settings: TraceSettings, rules: [any TraceRule.Type] = RuleCatalog.traceRules) {
        self.settings = settings
        self.ruleTypes = rules
    }

    /// Checks one event.
    /// - Parameter event: the event.
    /// - Returns: the findings at this event, in rule order.
    public mutating func observe(_ event: TraceEvent) -> [Finding] {
        var findings: [Finding] = []
        switch event.payload {
        case .other:
            return findings
        case .checks(let checks):
            withSession(event.client) { rules in
                for index in rules.indices { rules[index].observe(checks: checks, at: event.location, into: &findings) }
            }
        case .exchange(let rpc, let request, let response):
            examinedExchanges += 1
            guard let decoded = Self.decode(rpc, request: request, response: response, at: event.location, into: &findings) else {
                return findings
            }
            withSession(event.client) { rules in
                for index in rules.indices { rules[index].observe(decoded, at: event.location, into: &findings) }
            }
        }
        return findings
    }

    private mutating func withSession(_ client: String, _ body: (inout [any TraceRule]) -> Void) {
        var rules = sessions.removeValue(forKey: client) ?? ruleTypes.map { $0.init(settings: settings) }
        body(&rules)
        sessions[client] = rules
    }

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
