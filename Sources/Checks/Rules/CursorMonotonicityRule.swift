import Corpus
import JSON
import KizunaWire

/// I-3: a pull response's cursor high-water never decreases (neither below the previous
/// response's nor below the request's), except across CHECKPOINT_EXPIRED; an asserted client
/// cursor changes only across a has_more:false checkpoint boundary.
///
/// A continuation page that fills holes of a composite request cursor and stops inside them
/// is the one exception: its cursor is `<start>:<seq of its last entry>` (I-9d), below the
/// request's high-water, as upstream's SQL pack encodes it (kizunasync/kizunasync,
/// packages/supabase-pack/supabase/migrations/0001_kizuna_init.sql at 05bc51f1,
/// `_encode_continuation(start, last seq)`), so the rule holds the transfer's high-water there
/// instead (`accord explore` found the two rules asking for different cursors).
public struct CursorMonotonicityRule: Rule {
    /// Folds KizunaSync traces.
    public typealias Profile = KizunaSync.Trace
    /// The rule reported.
    public static let ruleIDs: [RuleID] = ["I-3"]
    private var lastHighWater: SequenceNumber?
    private var assertedCursor: String?
    private var boundarySinceAssert = false

    /// Starts a fold.
    public init(settings: TraceSettings) {}

    /// Tracks pull cursors.
    public mutating func observe(_ observation: KizunaSync.Trace.Observation, at location: StepLocation, into findings: inout [Finding]) {
        switch observation {
        case .exchange(let exchange): observe(exchange, at: location, into: &findings)
        case .checks(let checks): observe(checks: checks, at: location, into: &findings)
        }
    }

    private mutating func observe(_ exchange: DecodedExchange, at location: StepLocation, into findings: inout [Finding]) {
        guard case .pull(let request, let response) = exchange else { return }
        let highWater = response.cursor.highWater
        if Self.stopsInHoleFills(request: request.cursor, response: response) {
            lastHighWater = max(lastHighWater ?? request.cursor.highWater, request.cursor.highWater)
            return
        }
        if highWater < request.cursor.highWater {
            findings.append(
                Finding(
                    "I-3", at: location, pointer: JSONPointer(tokens: ["response", "cursor"]),
                    "pull response cursor high-water \(highWater) is below the request cursor's \(request.cursor.highWater)",
                    expected: .string("≥ \(request.cursor.highWater)"), actual: .string(response.cursor.description)))
        } else if let last = lastHighWater, highWater < last {
            findings.append(
                Finding(
                    "I-3", at: location, pointer: JSONPointer(tokens: ["response", "cursor"]),
                    "pull response cursor high-water went back from \(last) to \(highWater)",
                    expected: .string("≥ \(last)"), actual: .string(response.cursor.description)))
        }
        lastHighWater = highWater
        if response.signal == .checkpointExpired { lastHighWater = nil }
        if !response.hasMore { boundarySinceAssert = true }
    }

    /// Whether a page is a continuation that delivered only hole fills of the request cursor up
    /// to its own high-water, which is its last entry's seq: the page stopped inside the holes.
    static func stopsInHoleFills(request: CursorToken, response: PullResponse) -> Bool {
        guard response.hasMore, response.cursor.isContinuation, response.cursor.highWater < request.highWater else { return false }
        let seqs = response.rows.map(\.seq) + response.tombstones.map(\.seq)
        guard let last = seqs.max(), last == response.cursor.highWater else { return false }
        return seqs.allSatisfy { $0 > request.highWater || request.hasHole($0) }
    }

    /// Tracks asserted client cursors.
    /// - Parameters:
    ///   - checks: the checks.
    ///   - location: where they are.
    ///   - findings: where violations go.
    private mutating func observe(checks: [Check], at location: StepLocation, into findings: inout [Finding]) {
        for (index, check) in checks.enumerated() {
            guard case .cursor(let value) = check else { continue }
            let pointer = JSONPointer(tokens: ["checks", String(index), "value"])
            do throws(WireError) {
                _ = try CursorToken(parsing: value)
            } catch {
                findings.append(Finding("I-3", at: location, pointer: pointer, "asserted cursor \"\(value)\" is not a cursor token"))
                continue
            }
            if let previous = assertedCursor, previous != value, !boundarySinceAssert {
                findings.append(
                    Finding(
                        "I-3", at: location, pointer: pointer,
                        "asserted cursor changed from \(previous) to \(value) without a has_more:false checkpoint boundary",
                        expected: .string(previous), actual: .string(value)))
            }
            assertedCursor = value
            boundarySinceAssert = false
        }
    }
}
