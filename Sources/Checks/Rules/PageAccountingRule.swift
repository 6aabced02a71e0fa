import JSON
import KizunaWire

/// I-9 clauses a–d and f: rows and tombstones count against one limit (a); a page whose cursor
/// carries a start keeps has_more:true (b); an under-full page with a hole-free cursor closes the
/// checkpoint (c); a continuation cursor is `<start>:<last entry seq>` with the transfer's
/// start (d); a has_more:true hole-free cursor carries a start (f). A declared scan cap lets a
/// page stop early. Clause e (signal pages) is `SignalPageRule`.
public struct PageAccountingRule: Rule {
    /// Folds KizunaSync traces.
    public typealias Profile = KizunaSync.Trace
    /// The rules reported.
    public static let ruleIDs: [RuleID] = ["I-9a", "I-9b", "I-9c", "I-9d", "I-9f"]
    private let scanCap: Int?
    private let defaultLimit: Int

    /// Starts a fold.
    /// - Parameter settings: the scan cap and default limit.
    public init(settings: TraceSettings) {
        scanCap = settings.scanCap
        defaultLimit = settings.defaultLimit
    }

    /// Checks one page's accounting; client-state checks say nothing to it.
    public mutating func observe(_ observation: KizunaSync.Trace.Observation, at location: StepLocation, into findings: inout [Finding]) {
        guard case .exchange(let exchange) = observation else { return }
        guard case .pull(let request, let response) = exchange, response.signal == nil else { return }
        let limit = request.limit ?? defaultLimit
        let entries = response.entryCount
        let cursor = response.cursor
        let root = JSONPointer(tokens: ["response"])
        if entries > limit {
            findings.append(
                Finding(
                    "I-9a", at: location, pointer: root, "page holds \(entries) rows and tombstones, over the limit \(limit)",
                    expected: .string("≤ \(limit)"), actual: .number(JSONNumber(entries))))
        }
        let highest = (response.rows.map(\.seq) + response.tombstones.map(\.seq)).max()
        if let start = cursor.start {
            if !response.hasMore {
                findings.append(
                    Finding(
                        "I-9b", at: location, pointer: root.appending("has_more"),
                        "page whose cursor carries a start (\(cursor)) closes with has_more:false; the closing page returns a checkpoint token",
                        expected: true, actual: false))
            }
            let atLast = scanCap == nil ? highest == cursor.highWater : (highest.map { $0 <= cursor.highWater } ?? true)
            if !atLast {
                findings.append(
                    Finding(
                        "I-9d", at: location, pointer: root.appending("cursor"),
                        "continuation cursor high-water \(cursor.highWater) is not the page's last entry seq \(highest?.text ?? "(none)")",
                        expected: .string("\(start):\(highest?.text ?? "?")"), actual: .string(cursor.description)))
            }
            let expectedStart = request.cursor.transferStart
            if start != expectedStart {
                findings.append(
                    Finding(
                        "I-9d", at: location, pointer: root.appending("cursor"),
                        "continuation cursor start \(start) is not the transfer's start \(expectedStart)",
                        expected: .string("\(expectedStart):…"), actual: .string(cursor.description)))
            }
        }
        guard response.hasMore, cursor.holes.isEmpty else { return }
        if entries < limit && scanCap == nil {
            findings.append(
                Finding(
                    "I-9c", at: location, pointer: root.appending("has_more"),
                    "page holds \(entries) entries, under the limit \(limit), yet keeps has_more:true with a hole-free cursor",
                    expected: false, actual: true))
        }
        if cursor.start == nil {
            findings.append(
                Finding(
                    "I-9f", at: location, pointer: root.appending("cursor"),
                    "has_more:true page with a hole-free cursor carries no <start>: prefix", actual: .string(cursor.description)))
        }
    }
}
