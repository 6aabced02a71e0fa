import AccordDriver
import Checks
import Corpus
import JSON
import KizunaWire
import Reports

extension KizunaSync.ClientJudge {
    /// The requests the mock received for a step, judged against the golden request.
    /// - Parameter wrapped: a play wrapper's own findings on the same requests, reported after the
    ///   request's and before a count of extra requests (dropped when no request arrived).
    func requestFailures(
        _ step: Step, rpc: RPCKind, golden: JSONValue?, received: [KizunaSync.Mock.Received], wrapped: [Failure] = []
    ) -> [Failure] {
        guard let first = received.first else {
            return [
                Failure(
                    .request, message: "step \(step.n) \(step.label): \(ObligationID.request) no \(rpc.rawValue) request reached the server"
                )
            ]
        }
        var failures: [Failure] = []
        let resend = lastFault.flatMap { $0.target == rpc ? $0 : nil }
        if let resend, let dropped = resend.body, let body = first.body, CanonicalJSON.compact(body) != CanonicalJSON.compact(dropped) {
            let at = body.firstDifference(from: dropped) ?? .root
            failures.append(
                Failure(
                    .resend,
                    message:
                        "step \(step.n) \(step.label): \(ObligationID.resend) the request after the lost answer at step \(resend.step) is not the same bytes, first at \(at.readable)",
                    body:
                        "expected: \(CanonicalJSON.compact(dropped.value(at: at) ?? .null))\nactual: \(CanonicalJSON.compact(body.value(at: at) ?? .null))"
                ))
        } else if let mismatch = first.mismatch {
            let rule: ObligationID
            if resend != nil && mismatch.pointer != nil {
                rule = .resend
            } else if Self.splitsAtomicRun(golden, first.body) {
                rule = .atomicRun
            } else {
                rule = .request
            }
            let after = resend.map { " (after the fault at step \($0.step))" } ?? ""
            failures.append(
                Failure(
                    rule, message: "step \(step.n) \(step.label): \(rule) \(mismatch.message)\(after)",
                    body: "expected: \(mismatch.expected)\nactual: \(mismatch.actual)"))
        }
        failures += wrapped
        if received.count > 1 {
            failures.append(
                Failure(
                    .request,
                    message: "step \(step.n) \(step.label): \(ObligationID.request) \(received.count) requests for one \(rpc.rawValue)",
                    body: received.map(\.summary).joined(separator: "\n")))
        }
        return failures
    }

    /// Whether a push differs from its golden atomic batch in what makes the run: the atomic flag or the mutation ids.
    static func splitsAtomicRun(_ golden: JSONValue?, _ actual: JSONValue?) -> Bool {
        guard let golden, golden["batch"]?["atomic"] == .bool(true) else { return false }
        func ids(_ body: JSONValue?) -> [String] {
            body?["batch"]?["mutations"]?.arrayValue?.compactMap { $0["mutation_id"]?.stringValue } ?? []
        }
        return actual?["batch"]?["atomic"] != .bool(true) || ids(actual) != ids(golden)
    }
}
