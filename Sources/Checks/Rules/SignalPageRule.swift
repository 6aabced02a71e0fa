import JSON
import KizunaWire

/// I-8: a pull signal excludes page data (no rows, no tombstones, has_more:false); I-9e: a
/// signal page is exempt from page accounting because it echoes the request cursor verbatim;
/// AC-EXPIRY: a transfer that started from "0" never expires.
public struct SignalPageRule: Rule {
    /// Folds KizunaSync traces.
    public typealias Profile = KizunaSync.Trace
    /// The rules reported.
    public static let ruleIDs: [RuleID] = ["I-8", "I-9e", "AC-EXPIRY"]

    /// Starts a fold.
    public init(settings: TraceSettings) {}

    /// Checks a signal page; client-state checks say nothing to it.
    public mutating func observe(_ observation: KizunaSync.Trace.Observation, at location: StepLocation, into findings: inout [Finding]) {
        guard case .exchange(let exchange) = observation else { return }
        guard case .pull(let request, let response) = exchange, let signal = response.signal else { return }
        if !response.rows.isEmpty || !response.tombstones.isEmpty {
            findings.append(
                Finding(
                    "I-8", at: location, pointer: JSONPointer(tokens: ["response"]),
                    "\(signal.rawValue) page carries \(response.rows.count) rows and \(response.tombstones.count) tombstones; a signal excludes page data"
                ))
        }
        if response.hasMore {
            findings.append(
                Finding(
                    "I-8", at: location, pointer: JSONPointer(tokens: ["response", "has_more"]),
                    "\(signal.rawValue) page keeps has_more:true",
                    expected: false, actual: true))
        }
        if signal == .checkpointExpired && request.cursor.transferStart == .zero {
            findings.append(
                Finding(
                    "AC-EXPIRY", at: location, pointer: JSONPointer(tokens: ["response", "signal", "type"]),
                    "CHECKPOINT_EXPIRED answers a transfer that started from \"0\" (request cursor \(request.cursor)); a bootstrap never expires"
                ))
        }
        if response.cursor != request.cursor {
            findings.append(
                Finding(
                    "I-9e", at: location, pointer: JSONPointer(tokens: ["response", "cursor"]),
                    "\(signal.rawValue) page does not echo the request cursor", expected: .string(request.cursor.description),
                    actual: .string(response.cursor.description)))
        }
    }
}
