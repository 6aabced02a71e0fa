import Corpus
import KizunaWire

/// A rule over a trace, written as a pure fold: it sees each decoded exchange (and each set of
/// client-state checks) of one client's session in order and appends findings. Rules hold only
/// the little state they need, so a recording of any length is checked in bounded memory.
public protocol TraceRule: Sendable {
    /// The rule ids this rule reports.
    static var ruleIDs: [RuleID] { get }
    /// Starts a fold for one client session.
    /// - Parameter settings: the trace's settings.
    init(settings: TraceSettings)
    /// Folds one exchange in.
    /// - Parameters:
    ///   - exchange: the decoded exchange.
    ///   - location: where it is.
    ///   - findings: where violations go.
    mutating func observe(_ exchange: DecodedExchange, at location: StepLocation, into findings: inout [Finding])
    /// Folds one set of client-state checks in.
    /// - Parameters:
    ///   - checks: the checks.
    ///   - location: where they are.
    ///   - findings: where violations go.
    mutating func observe(checks: [Check], at location: StepLocation, into findings: inout [Finding])
}

extension TraceRule {
    /// Ignores checks; most rules read exchanges only.
    public mutating func observe(checks: [Check], at location: StepLocation, into findings: inout [Finding]) {}
}

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

/// The rules that decoding enforces: shape (I-2) and the closed sets.
public enum DecodingRules {
    /// The rule a decoding failure breaks.
    /// - Parameter kind: the wire error kind.
    /// - Returns: the rule id.
    public static func ruleID(for kind: WireError.Kind) -> RuleID {
        switch kind {
        case .unknownOp: "AC-OP"
        case .unknownVerdictReason: "AC-REASON"
        case .unknownSignal: "AC-SIGNAL"
        case .unknownVerdictKind: "AC-VERDICT-KIND"
        default: "I-2"
        }
    }

    /// The finding for a decoding failure.
    /// - Parameters:
    ///   - error: the failure.
    ///   - side: "request" or "response".
    ///   - location: where it is.
    /// - Returns: the finding.
    public static func finding(for error: WireError, side: String, at location: StepLocation) -> Finding {
        Finding(ruleID(for: error.kind), at: location, pointer: error.pointer, "\(side) \(error.protocolCode): \(error.detail)")
    }
}
