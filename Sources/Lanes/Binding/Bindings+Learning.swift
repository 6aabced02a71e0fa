import JSON
import KizunaWire

extension Bindings {
    /// Learns the server-made values of one answer by pairing it with its golden (or recorded)
    /// answer by meaning, not by position: rows and tombstones by (table, pk), conflicts by
    /// (table, pk, column, winner), each pair's `seq`, `deleted_at` and `winner_seq`; then the
    /// cursor, part by part, when both answers carry the same signal (a signal page echoes the
    /// request's cursor, so it teaches nothing). A live time must be RFC 3339 UTC and, on a
    /// wall-clock server, not earlier than the seed.
    /// - Parameters:
    ///   - golden: the golden or recorded response.
    ///   - live: the live response.
    ///   - label: the step or exchange, e.g. "step 3 pull".
    /// - Returns: what was learned and what could not be bound.
    public mutating func learn(golden: JSONValue, live: JSONValue, at label: String) -> Learning {
        var learning = Learning()
        guard let golden = golden.objectValue, let live = live.objectValue else { return learning }
        pair("rows", golden, live, key: ["table", "pk"], label: label, into: &learning)
        pair("tombstones", golden, live, key: ["table", "pk"], label: label, into: &learning)
        pair("conflicts", golden, live, key: ["table", "pk", "column_name", "winner_mutation_id"], label: label, into: &learning)
        if CanonicalJSON.compact(golden["signal"] ?? .null) == CanonicalJSON.compact(live["signal"] ?? .null),
            let goldenText = golden["cursor"]?.stringValue, let liveText = live["cursor"]?.stringValue,
            let goldenToken = try? CursorToken(parsing: goldenText), let liveToken = try? CursorToken(parsing: liveText)
        {
            let origin = BindingOrigin(label, at: JSONPointer(tokens: ["cursor"]))
            // A client sends back what the server answered, whether or not its parts bind.
            answeredCursors[goldenText] = (liveText, origin)
            guard (goldenToken.start == nil) == (liveToken.start == nil), goldenToken.holes.count == liveToken.holes.count else {
                learning.violations.append(
                    BindingViolation(
                        pointer: origin.pointer ?? .root, golden: goldenText, live: liveText,
                        message:
                            "cursor \"\(goldenText)\" (\(Self.shape(goldenToken))) was answered with \"\(liveText)\" (\(Self.shape(liveToken))) at \(origin): a token of another shape"
                    ))
                return learning
            }
            bind(position: goldenToken.highWater, to: liveToken.highWater, origin: origin, into: &learning)
            if let goldenStart = goldenToken.start, let liveStart = liveToken.start {
                bind(position: goldenStart, to: liveStart, origin: origin, into: &learning)
            }
            for (goldenHole, liveHole) in zip(goldenToken.holes, liveToken.holes) {
                bind(position: goldenHole, to: liveHole, origin: origin, into: &learning)
            }
        }
        return learning
    }

    /// "a continuation with 1 hole", "a checkpoint with no hole".
    private static func shape(_ token: CursorToken) -> String {
        let holes = token.holes.isEmpty ? "no hole" : token.holes.count == 1 ? "1 hole" : "\(token.holes.count) holes"
        return "\(token.isContinuation ? "a continuation" : "a checkpoint") with \(holes)"
    }

    /// Pairs the entries of one list whose key appears exactly once on each side, and binds
    /// their server-made members.
    private mutating func pair(
        _ list: String, _ golden: JSONObject, _ live: JSONObject, key: [String], label: String, into learning: inout Learning
    ) {
        guard let goldenEntries = golden[list]?.arrayValue, let liveEntries = live[list]?.arrayValue else { return }
        func identity(_ entry: JSONValue) -> String? {
            var parts: [JSONValue] = []
            for name in key {
                guard let part = entry[name] else { return nil }
                parts.append(part)
            }
            return CanonicalJSON.compact(.array(parts))
        }
        func index(_ entries: [JSONValue]) -> [String: Int] {
            var counts: [String: Int] = [:]
            var positions: [String: Int] = [:]
            for (position, entry) in entries.enumerated() {
                guard let id = identity(entry) else { continue }
                counts[id, default: 0] += 1
                positions[id] = position
            }
            return positions.filter { counts[$0.key] == 1 }
        }
        let livePositions = index(liveEntries)
        for (id, goldenPosition) in index(goldenEntries).sorted(by: { $0.value < $1.value }) {
            guard let livePosition = livePositions[id] else { continue }
            let goldenEntry = goldenEntries[goldenPosition]
            let liveEntry = liveEntries[livePosition]
            let at = JSONPointer(tokens: [list, String(livePosition)])
            for member in ["seq", "winner_seq"] {
                guard let goldenText = goldenEntry[member]?.stringValue, let liveText = liveEntry[member]?.stringValue,
                    let goldenSeq = SequenceNumber(goldenText), let liveSeq = SequenceNumber(liveText)
                else { continue }
                bind(position: goldenSeq, to: liveSeq, origin: BindingOrigin(label, at: at.appending(member)), into: &learning)
            }
            if let goldenText = goldenEntry["deleted_at"]?.stringValue, let liveText = liveEntry["deleted_at"]?.stringValue {
                learnTime(goldenText, liveText, origin: BindingOrigin(label, at: at.appending("deleted_at")), into: &learning)
            }
        }
    }

    private mutating func learnTime(_ goldenText: String, _ liveText: String, origin: BindingOrigin, into learning: inout Learning) {
        let pointer = origin.pointer ?? .root
        guard let live = UTCTimestamp(liveText) else {
            learning.violations.append(
                BindingViolation(
                    pointer: pointer, golden: goldenText, live: liveText,
                    message: "deleted_at \"\(liveText)\" at \(origin) is not an RFC 3339 time in UTC (Z or +00:00)"))
            return
        }
        if let notBefore, live < notBefore {
            learning.violations.append(
                BindingViolation(
                    pointer: pointer, golden: goldenText, live: liveText,
                    message:
                        "deleted_at \"\(liveText)\" at \(origin) is earlier than the seed (\(notBefore)): a wall clock stamps no time before the case began"
                ))
            return
        }
        guard let golden = UTCTimestamp(goldenText) else { return }
        bind(time: golden, to: live, origin: origin, into: &learning)
    }
}
