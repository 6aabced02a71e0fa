import JSON
import KizunaWire

/// I-4: nothing above the response high-water is delivered, nor anything at or below the
/// request's high-water unless it fills a hole of the request token (visibility-horizon
/// fencing). Signal pages are left to I-8.
public struct DeliveryBoundRule: Rule {
    /// Folds KizunaSync traces.
    public typealias Profile = KizunaSync.Trace
    /// The rule reported.
    public static let ruleIDs: [RuleID] = ["I-4"]
    private let allowsHoleRedelivery: Bool

    /// Starts a fold.
    /// - Parameter settings: the fencing decides whether holes may be re-delivered.
    public init(settings: TraceSettings) { allowsHoleRedelivery = settings.fencing == "visibility-horizon" }

    /// Checks every delivered seq of a pull page; client-state checks say nothing to it.
    public mutating func observe(_ observation: KizunaSync.Trace.Observation, at location: StepLocation, into findings: inout [Finding]) {
        guard case .exchange(let exchange) = observation else { return }
        guard case .pull(let request, let response) = exchange, response.signal == nil else { return }
        let delivered =
            response.rows.enumerated().map { (["response", "rows", String($0.offset), "seq"], $0.element.seq) }
            + response.tombstones.enumerated().map { (["response", "tombstones", String($0.offset), "seq"], $0.element.seq) }
        for (tokens, seq) in delivered {
            let pointer = JSONPointer(tokens: tokens)
            if seq > response.cursor.highWater {
                findings.append(
                    Finding(
                        "I-4", at: location, pointer: pointer,
                        "delivered seq \(seq) is above the response cursor high-water \(response.cursor.highWater)",
                        expected: .string("≤ \(response.cursor.highWater)"), actual: .string(seq.text)))
            } else if seq <= request.cursor.highWater && !(allowsHoleRedelivery && request.cursor.hasHole(seq)) {
                findings.append(
                    Finding(
                        "I-4", at: location, pointer: pointer,
                        "delivered seq \(seq) is at or below the request cursor high-water \(request.cursor.highWater) and fills no hole of it",
                        expected: .string("> \(request.cursor.highWater)"), actual: .string(seq.text)))
            }
        }
    }
}
