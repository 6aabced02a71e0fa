import Checks
import Corpus
import JSON
import KizunaWire
import Reports
import ServerContract

/// The answer a live exchange is judged against: a golden step's or a recorded exchange's.
struct ReferenceAnswer: Sendable {
    /// Which RPC.
    var rpc: RPCKind
    /// Its HTTP status: 2xx an answer, 0 an answer that was lost (recordings), else an error reply.
    var status: Int
    /// Its body.
    var body: JSONValue
    /// "golden" or "recorded", for messages.
    var noun: String

    var isAnswer: Bool { (200..<300).contains(status) }
}

/// How one live exchange was judged.
struct Judgement: Sendable {
    /// The test case's outcome.
    var outcome: CaseOutcome
    /// What the lane observed: the tier, substitutions, bindings learned.
    var note: String?
    /// The tier reached; nil when nothing was compared (not applicable, a lost answer).
    var tier: ResponseTier?
}

/// Judges one live exchange, the same way in every server lane (corpus cases, recordings): an
/// error reply must come back with the same status and PostgREST code; an answer runs through
/// the rule catalog with the live request and response, then is compared with its reference
/// translated through the bindings (tiers pass, bound, diverged). A binding that cannot be made
/// (AC-BINDING) and the first difference (AC-GOLDEN, root cause first: signal, batch, verdicts,
/// has_more, cursor, rows, tombstones) are the failures.
enum ExchangeJudge {
    /// What the lane knows about one exchange when it judges it.
    struct Exchange: Sendable {
        /// The reference answer.
        var reference: ReferenceAnswer
        /// The request as sent (bindings applied).
        var sent: JSONValue
        /// The substitutions made in it.
        var substitutions: [Bindings.Substitution]
        /// The live reply.
        var reply: RPCReply
        /// What the live answer taught the bindings.
        var learning: Bindings.Learning
        /// The reference answer with the bindings applied (after learning from this answer).
        var translated: JSONValue
        /// Why the comparison does not apply to this target, if it does not.
        var notApplicable: String?
        /// Why the recorded answer may differ from a correct live one, if it may: the recording
        /// cannot show the world this answer depends on. A difference is then not inferable.
        var notInferable: String? = nil
        /// The rules the recorded answer itself breaks: the recorded service's fault, so the
        /// live answer is judged by the rules alone.
        var recordedFaults: [Failure] = []
        /// "step 6 pull" or "exchange 4 pull".
        var label: String
        /// The trace location and client the rules see.
        var location: StepLocation
        var client: String
    }

    static func judge(_ exchange: Exchange, checker: inout Checker<KizunaSync.Trace>, required: ResponseTier) -> Judgement {
        let reference = exchange.reference
        let reply = exchange.reply
        let label = exchange.label
        if !reference.isAnswer && reference.status != 0 {
            let code = reference.body["code"]
            if reply.status == reference.status && reply.body["code"] == code {
                return Judgement(
                    outcome: .passed, note: "error reply \(reply.status) \(code.map(CanonicalJSON.compact) ?? "")", tier: .pass)
            }
            return diverged(
                "\(label): AC-GOLDEN expected HTTP \(reference.status) with code \(code.map(CanonicalJSON.compact) ?? "null"), got HTTP \(reply.status) with code \(reply.body["code"].map(CanonicalJSON.compact) ?? "null")",
                reference.body, reply.body)
        }
        guard (200..<300).contains(reply.status) else {
            let was =
                reference.status == 0
                ? "a request whose \(reference.noun) answer was lost" : "the \(reference.noun) status is \(reference.status)"
            return diverged("\(label): AC-GOLDEN the server answered HTTP \(reply.status); \(was)", reference.body, reply.body)
        }
        if reference.status == 0 {
            let note = "the \(reference.noun) answer was lost (status 0): replayed for its effect, the live answer is not compared"
            return Judgement(outcome: .passed, note: note, tier: nil)
        }
        let event = KizunaSync.Trace.Event(
            location: exchange.location, client: exchange.client,
            payload: .exchange(reference.rpc, request: exchange.sent, response: reply.body))
        let scope: JSONValue = ["request": exchange.sent, "response": reply.body]
        var failures = checker.observe(event).map { TranscriptCheck.failure($0, in: scope) }
        var notes: [String] = []
        if !exchange.substitutions.isEmpty {
            notes.append("sent with " + exchange.substitutions.map(\.description).joined(separator: ", "))
        }
        if !exchange.recordedFaults.isEmpty {
            let broken = Set(exchange.recordedFaults.map(\.ruleID.rawValue)).sorted().joined(separator: ", ")
            notes.append("not compared: the recorded answer breaks \(broken)")
            return Judgement(outcome: .failed(exchange.recordedFaults + failures), note: notes.joined(separator: "; "), tier: nil)
        }
        if let reason = exchange.notApplicable {
            notes.append("not compared: \(reason)")
            let outcome: CaseOutcome =
                failures.isEmpty ? .skipped("not applicable: \(reason); the rules ran on the live exchange and held") : .failed(failures)
            return Judgement(outcome: outcome, note: notes.joined(separator: "; "), tier: nil)
        }
        let tier: ResponseTier
        if CanonicalJSON.compact(reference.body) == CanonicalJSON.compact(reply.body) && exchange.learning.violations.isEmpty {
            tier = .pass
        } else if CanonicalJSON.compact(exchange.translated) == CanonicalJSON.compact(reply.body) && exchange.learning.violations.isEmpty {
            tier = .bound
        } else {
            tier = .diverged
        }
        let moved = exchange.learning.learned.filter { $0.golden != $0.live }
        if !moved.isEmpty { notes.append("bound " + moved.map(\.description).joined(separator: ", ")) }
        if tier == .diverged, let reason = exchange.notInferable {
            notes.insert("not inferable: \(reason)", at: 0)
            let outcome: CaseOutcome =
                failures.isEmpty
                ? .skipped(
                    "not inferable: the live answer differs from the recorded one, and \(reason); the rules ran on the live exchange and held"
                )
                : .failed(failures)
            return Judgement(outcome: outcome, note: notes.joined(separator: "; "), tier: nil)
        }
        failures += comparisonFailures(exchange, tier: tier, required: required)
        switch tier {
        case .pass: notes.insert("tier pass: canonical bytes equal", at: 0)
        case .bound: notes.insert("tier bound: equal once server-made values are bound to this server's", at: 0)
        case .diverged: notes.insert("tier diverged", at: 0)
        }
        return Judgement(outcome: failures.isEmpty ? .passed : .failed(failures), note: notes.joined(separator: "; "), tier: tier)
    }

    private static func comparisonFailures(_ exchange: Exchange, tier: ResponseTier, required: ResponseTier) -> [Failure] {
        let label = exchange.label
        let live = exchange.reply.body
        func body(at pointer: JSONPointer) -> String {
            "at: \(BindingViolation.show(pointer))" + place(of: pointer, expected: exchange.translated, live: live) + "\nexpected: "
                + CanonicalJSON.compact(exchange.translated.value(at: pointer) ?? .null) + "\nactual: "
                + CanonicalJSON.compact(live.value(at: pointer) ?? .null)
        }
        switch tier {
        case .pass:
            return []
        case .bound:
            guard required == .pass else { return [] }
            let at = rootCause(exchange.reference.body.differences(from: live)) ?? .root
            return [
                Failure(
                    ruleID: "AC-GOLDEN",
                    message:
                        "\(label): AC-GOLDEN the live response equals the \(exchange.reference.noun) one only once server-made values are bound (tier bound), first at \(BindingViolation.show(at)); run without --tier pass to accept that",
                    body: "expected: " + CanonicalJSON.compact(exchange.reference.body.value(at: at) ?? .null) + "\nactual: "
                        + CanonicalJSON.compact(live.value(at: at) ?? .null))
            ]
        case .diverged:
            var failures = exchange.learning.violations.map { violation in
                Failure(
                    ruleID: "AC-BINDING", message: "\(label): AC-BINDING \(violation.message)",
                    body: "golden: \(violation.golden)\nlive: \(violation.live)")
            }
            let violated = Set(exchange.learning.violations.map(\.pointer))
            let remaining = exchange.translated.differences(from: live).filter { !violated.contains($0) }
            if let at = rootCause(remaining) {
                failures.append(
                    Failure(
                        ruleID: "AC-GOLDEN",
                        message:
                            "\(label): AC-GOLDEN the live response diverges from the \(exchange.reference.noun) one at \(BindingViolation.show(at))"
                            + place(of: at, expected: exchange.translated, live: live)
                            + values(at: at, expected: exchange.translated, live: live, noun: exchange.reference.noun)
                            + carried(exchange.substitutions),
                        body: body(at: at)))
            }
            return failures
        }
    }

    /// "; the request carried cursor "3" in place of the golden "4", as the server answered it at step 3 pull at /cursor".
    private static func carried(_ substitutions: [Bindings.Substitution]) -> String {
        let parts = substitutions.map { substitution in
            let name = substitution.pointer.tokens.last ?? "value"
            let origin = substitution.origin.map { ", as the server answered it at \($0)" } ?? ""
            return "\(name) \"\(substitution.live)\" in place of the golden \"\(substitution.golden)\"\(origin)"
        }
        return parts.isEmpty ? "" : "; the request carried " + parts.joined(separator: ", ")
    }

    /// The order in which a difference explains the others: a signal or an abort before the
    /// page it replaces, has_more before the cursor it closes, the cursor before the rows.
    static let causeOrder = ["status", "code", "signal", "batch", "verdicts", "has_more", "cursor", "rows", "tombstones", "conflicts"]

    /// The difference to report first.
    static func rootCause(_ pointers: [JSONPointer]) -> JSONPointer? {
        pointers.enumerated().min { lhs, rhs in
            let left = rank(lhs.element)
            let right = rank(rhs.element)
            return left != right ? left < right : lhs.offset < rhs.offset
        }?.element
    }

    private static func rank(_ pointer: JSONPointer) -> Int {
        guard let first = pointer.tokens.first else { return -1 }
        return causeOrder.firstIndex(of: first) ?? causeOrder.count
    }

    private static func diverged(_ message: String, _ expected: JSONValue, _ actual: JSONValue) -> Judgement {
        Judgement(
            outcome: .failed([
                Failure(
                    ruleID: "AC-GOLDEN", message: message,
                    body: "expected: " + CanonicalJSON.compact(expected) + "\nactual: " + CanonicalJSON.compact(actual))
            ]), note: "tier diverged", tier: .diverged)
    }
}
