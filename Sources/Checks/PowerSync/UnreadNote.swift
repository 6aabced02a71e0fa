import KizunaWire
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
        var seen: [String: Int] = [:]
        var order: [String] = []
        var kinds: [String: Int] = [:]
        var kindOrder: [String] = []
        for (index, line) in lines.enumerated() {
            for pointer in SyncLine.unread(in: line) {
                let general = "/" + pointer.tokens.map { Int($0) == nil ? $0 : "*" }.joined(separator: "/")
                if pointer.tokens.count == 1 {
                    if kinds[general] == nil { kindOrder.append(general) }
                    kinds[general] = kinds[general] ?? index + 1
                } else {
                    if seen[general] == nil { order.append(general) }
                    seen[general] = seen[general] ?? index + 1
                }
            }
        }
        if order.isEmpty && kindOrder.isEmpty { return nil }
        var parts = order.map { "\($0) (NDJSON line \(seen[$0] ?? 0))" }
        parts += kindOrder.map { "an unknown line kind, \($0) (NDJSON line \(kinds[$0] ?? 0))" }
        return "not read by Accord's model, skipped as PowerSync's core skips them: " + parts.joined(separator: "; ")
    }
}
