import JSON
import PowerSyncWire

/// The note a stream's case carries when its lines hold what Accord's model does not read: line
/// kinds no kind of this version names, and members no kind defines (`SyncLine.unread`). The
/// rules skip both as PowerSync's core does, so they are no failure; the note says they were
/// there, once per pointer (array indices as `*`), with the first NDJSON line that held it.
public enum UnreadNote {
    /// The note for a stream's lines, or nil when every line was read whole.
    /// - Parameter lines: the stream's lines, in order.
    /// - Returns: e.g. "not read by Accord's model, skipped as PowerSync's core skips them:
    ///   /checkpoint/streams (NDJSON line 1); an unknown line kind, /sync_progress (line 4)".
    public static func note(for lines: [JSONValue]) -> String? {
        var members: [String] = []
        var kinds: [String] = []
        var seen: Set<String> = []
        for (index, line) in lines.enumerated() {
            for pointer in SyncLine.unread(in: line) {
                let general = "/" + pointer.tokens.map { Int($0) == nil ? $0 : "*" }.joined(separator: "/")
                guard seen.insert(general).inserted else { continue }
                if pointer.tokens.count == 1 {
                    kinds.append("an unknown line kind, \(general) (NDJSON line \(index + 1))")
                } else {
                    members.append("\(general) (NDJSON line \(index + 1))")
                }
            }
        }
        let parts = members + kinds
        if parts.isEmpty { return nil }
        return "not read by Accord's model, skipped as PowerSync's core skips them: " + parts.joined(separator: "; ")
    }
}
