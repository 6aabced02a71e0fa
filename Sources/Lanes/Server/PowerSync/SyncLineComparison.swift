import JSON
import PowerSyncWire

/// How the server lane compares a live NDJSON line with the golden one: both are decoded
/// strictly and written again by PowerSyncWire, so member order and a checksum's wire form
/// (`4294967295`, `-1`, `-1.0`) do not count, and every value does, op ids exactly
/// (docs/powersync.md, "The server lane"). A line that does not decode is compared as written.
enum SyncLineComparison {
    /// The line as compared.
    /// - Parameter line: a line as sent or as the transcript writes it.
    /// - Returns: its normal form.
    static func normal(_ line: JSONValue) -> JSONValue {
        do throws(PowerSync.ShapeError) { return try SyncLine(json: line).json } catch { return line }
    }

    /// Where the live line first differs from the golden one, relative to the line, or nil.
    /// - Parameters:
    ///   - live: the line the service sent.
    ///   - golden: the transcript's line.
    /// - Returns: the pointer of the first difference.
    static func difference(_ live: JSONValue, golden: JSONValue) -> (pointer: JSONPointer, expected: JSONValue?, actual: JSONValue?)? {
        let live = normal(live)
        let golden = normal(golden)
        guard let pointer = live.firstDifference(from: golden) else { return nil }
        return (pointer, golden.value(at: pointer), live.value(at: pointer))
    }

    /// Every pointer at which two lines differ once both are in their normal form (`accord diff`
    /// lists them all, as it does for KizunaSync answers).
    /// - Parameters:
    ///   - line: one service's line.
    ///   - other: the other service's line.
    /// - Returns: the differing pointers, relative to the line, in document order.
    static func differences(_ line: JSONValue, _ other: JSONValue) -> [JSONPointer] {
        normal(line).differences(from: normal(other))
    }

    /// True for a `token_expires_in` keepalive, which the lane does not compare (its value is
    /// the clock's and the token's, not the service's state).
    static func isKeepalive(_ line: JSONValue) -> Bool {
        line.objectValue?.members.count == 1 && line["token_expires_in"] != nil
    }
}
