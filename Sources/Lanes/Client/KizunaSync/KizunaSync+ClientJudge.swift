import AccordDriver
import Checks
import Corpus
import JSON
import KizunaWire
import Reports

extension KizunaSync {
    /// The judging half of a client-lane play, pure: what the golden pages say the client has
    /// committed, the transfer in progress, the fault before this step, the soft block; and the
    /// functions that turn a step, the requests the mock received, the driver's answers and states
    /// into findings. It does no I/O, so it is tested without a driver or a mock.
    struct ClientJudge: Sendable {
        /// The cursor the client has durably committed, as the golden pages say.
        var committedCursor: String
        /// The state before the first staged page of a transfer, and the keys its staged pages carry.
        var snapshot: StateResult?
        var stagedKeys: [(table: String, pk: String)] = []
        /// The fault step the previous RPC-making step was, if it was one: its number, its RPC, and
        /// the body of the push whose answer was lost (the resend must be the same bytes).
        var lastFault: (step: Int, target: RPCKind, body: JSONValue?)?
        /// Whether a RESET_REQUIRED has been served: from then on any RPC breaks the soft block.
        var softBlocked = false

        /// A judge for a case whose client starts at `checkpoint` (`"0"` when nil).
        init(checkpoint: String?) {
            committedCursor = checkpoint ?? "0"
        }

        func judgePush(_ step: Step, exchange: RPCExchange, answer: DriverSession.Answer) -> [Failure] {
            let count = exchange.request["batch"]?["mutations"]?.arrayValue?.count ?? 0
            let signal = exchange.response["signal"]?["type"]?.stringValue
            guard case .result(.pushed(let result)) = answer else {
                return [outcomeFailure(step, "expected the push to be sent and answered, got \(Self.describe(answer))")]
            }
            if result.outcome != .sent || result.mutations != count || result.signal?.rawValue != signal {
                let want = "sent \(count) mutation(s)" + (signal.map { " with signal \($0)" } ?? "")
                let got =
                    "\(result.outcome.rawValue) \(result.mutations) mutation(s)"
                    + (result.signal.map { " with signal \($0.rawValue)" } ?? "")
                return [outcomeFailure(step, "expected \(want), the driver reports \(got)")]
            }
            return []
        }

        mutating func judgePull(_ step: Step, exchange: RPCExchange, answer: DriverSession.Answer) -> [Failure] {
            let response = exchange.response
            let signal = response["signal"]?["type"]?.stringValue
            let hasMore = response["has_more"] == .bool(true)
            let expected: PullOutcome = signal != nil ? .signal : (hasMore ? .staged : .closed)
            guard case .result(.pulled(let result)) = answer else {
                return [outcomeFailure(step, "expected the pull to end \(expected.rawValue), got \(Self.describe(answer))")]
            }
            var failures: [Failure] = []
            if result.outcome != expected || result.signal?.rawValue != signal {
                let got = result.outcome.rawValue + (result.signal.map { " \($0.rawValue)" } ?? "")
                failures.append(
                    outcomeFailure(
                        step, "expected the pull to end \(expected.rawValue)\(signal.map { " \($0)" } ?? ""), the driver reports \(got)"))
            }
            switch expected {
            case .closed:
                committedCursor = response["cursor"]?.stringValue ?? committedCursor
                snapshot = nil
                stagedKeys = []
            case .staged:
                for list in ["rows", "tombstones"] {
                    for entry in response[list]?.arrayValue ?? [] {
                        if let table = entry["table"]?.stringValue, let pk = entry["pk"]?.stringValue { stagedKeys.append((table, pk)) }
                    }
                }
            case .signal, .blocked:
                snapshot = nil
                stagedKeys = []
            }
            if result.cursor != committedCursor {
                failures.append(
                    checkpointFailure(
                        step, "the pull reports the durable cursor \(result.cursor); the last committed checkpoint is \(committedCursor)"))
            }
            return failures
        }

        func outcomeFailure(_ step: Step, _ text: String) -> Failure {
            Failure(.outcome, message: "step \(step.n) \(step.label): \(ObligationID.outcome) \(text)")
        }

        func checkpointFailure(_ step: Step, _ text: String) -> Failure {
            Failure(.checkpoint, message: "step \(step.n) \(step.label): \(ObligationID.checkpoint) \(text)")
        }

        static func describe(_ answer: DriverSession.Answer) -> String {
            switch answer {
            case .result(let result):
                "a \(result.op.rawValue) result \(CanonicalJSON.compact(DriverResponse(id: nil, result: result).json["result"] ?? .null))"
            case .failure(let failure): "the error \(failure)"
            case .broken(let reason): reason
            }
        }
    }
}
