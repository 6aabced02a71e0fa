import JSON
import KizunaWire

/// I-10: rows and tombstones each keep strict (seq, table, pk) stream order, and no entry of
/// the page's stream appears twice (a row and a tombstone never share a key). Signal pages are
/// left to I-8.
public struct StreamOrderRule: Rule {
    /// Folds KizunaSync traces.
    public typealias Profile = KizunaSync.Trace
    /// The rule reported.
    public static let ruleIDs: [RuleID] = ["I-10"]

    /// Starts a fold.
    public init(settings: TraceSettings) {}

    /// Checks the order of a page's entries; client-state checks say nothing to it.
    public mutating func observe(_ observation: KizunaSync.Trace.Observation, at location: StepLocation, into findings: inout [Finding]) {
        guard case .exchange(let exchange) = observation else { return }
        guard case .pull(_, let response) = exchange, response.signal == nil else { return }
        check(response.rows.map { ($0.seq, $0.table, $0.pk) }, field: "rows", at: location, into: &findings)
        check(response.tombstones.map { ($0.seq, $0.table, $0.pk) }, field: "tombstones", at: location, into: &findings)
        guard !response.rows.isEmpty && !response.tombstones.isEmpty else { return }
        var rowKeys = Set<[String]>()
        for row in response.rows { rowKeys.insert([row.seq.text, row.table, row.pk]) }
        for (index, tombstone) in response.tombstones.enumerated()
        where rowKeys.contains([tombstone.seq.text, tombstone.table, tombstone.pk]) {
            findings.append(
                Finding(
                    "I-10", at: location, pointer: JSONPointer(tokens: ["response", "tombstones", String(index)]),
                    "tombstones[\(index)] repeats a row's (seq \(tombstone.seq), \(tombstone.table), \(tombstone.pk)): one stream entry delivered twice"
                ))
        }
    }

    private func check(
        _ keys: [(SequenceNumber, String, String)], field: String, at location: StepLocation, into findings: inout [Finding]
    ) {
        guard keys.count > 1 else { return }
        for index in 1..<keys.count where !Self.precedes(keys[index - 1], keys[index]) {
            findings.append(
                Finding(
                    "I-10", at: location, pointer: JSONPointer(tokens: ["response", field, String(index)]),
                    "\(field)[\(index)] (seq \(keys[index].0)) does not follow \(field)[\(index - 1)] (seq \(keys[index - 1].0)) in (seq, table, pk) order"
                ))
        }
    }

    /// Strict (seq, table, pk) order, with table and pk compared byte-wise.
    /// - Parameters:
    ///   - lhs: the earlier entry.
    ///   - rhs: the later entry.
    /// - Returns: whether `lhs` strictly precedes `rhs`.
    public static func precedes(_ lhs: (SequenceNumber, String, String), _ rhs: (SequenceNumber, String, String)) -> Bool {
        if lhs.0 != rhs.0 { return lhs.0 < rhs.0 }
        if lhs.1 != rhs.1 { return lhs.1.utf8.lexicographicallyPrecedes(rhs.1.utf8) }
        return lhs.2.utf8.lexicographicallyPrecedes(rhs.2.utf8)
    }
}
