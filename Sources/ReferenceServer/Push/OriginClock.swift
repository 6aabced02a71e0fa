/// An origin hybrid logical clock `<iso>|<logical>|<node>`, ordered by (physical, logical, node).
struct OriginClock: Comparable, Sendable {
    var physical: String
    var logical: Int
    var node: String

    /// Parses the wire text; nil when it is not `<iso>|<logical>|<node>`.
    init?(_ text: String) {
        let parts = text.split(separator: "|", maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, let logical = Int(parts[1]) else { return nil }
        physical = String(parts[0])
        self.logical = logical
        node = String(parts[2])
    }

    init(physical: String, logical: Int, node: String) {
        self.physical = physical
        self.logical = logical
        self.node = node
    }

    /// How far ahead of the server's clock a device's may run before it is clamped: upstream's
    /// `hlc_max_skew_ms` default and its reference oracle's `MAX_CLOCK_SKEW_MS` (kizunasync/
    /// kizunasync at 05bc51f1, [SQL:hlc-skew-clamp]). The reference clamped to `now` itself until
    /// `accord explore` found it superseding writes the pack applies (issue 39).
    static let maxSkewMilliseconds = 5000

    /// The clock with its physical time clamped to the server's `now` plus the allowed skew (a
    /// device clock running ahead can never win forever).
    func clamped(to now: String) -> OriginClock {
        let ceiling = Self.adding(Self.maxSkewMilliseconds, to: now) ?? now
        return physical > ceiling ? OriginClock(physical: ceiling, logical: logical, node: node) : self
    }

    /// `time` (`YYYY-MM-DDTHH:MM:SS.mmmZ`) moved by `milliseconds`, in the same shape; nil for
    /// another shape.
    static func adding(_ milliseconds: Int, to time: String) -> String? {
        let bytes = Array(time.utf8)
        guard bytes.count == 24, bytes[23] == UInt8(ascii: "Z") else { return nil }
        func number(_ range: Range<Int>) -> Int? { Int(String(decoding: bytes[range], as: UTF8.self)) }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10), let hour = number(11..<13),
            let minute = number(14..<16), let second = number(17..<19), let milli = number(20..<23)
        else { return nil }
        // Days from the civil date (H. Hinnant's algorithm), then back.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let doy = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let days = era * 146_097 + yoe * 365 + yoe / 4 - yoe / 100 + doy - 719_468
        let total = (((days * 24 + hour) * 60 + minute) * 60 + second) * 1000 + milli + milliseconds
        let dayMs = 86_400_000
        var z = (total >= 0 ? total / dayMs : (total - dayMs + 1) / dayMs) + 719_468
        let rest = total - (z - 719_468) * dayMs
        let era2 = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era2 * 146_097
        let yoe2 = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy2 = doe - (365 * yoe2 + yoe2 / 4 - yoe2 / 100)
        let mp = (5 * doy2 + 2) / 153
        let outDay = doy2 - (153 * mp + 2) / 5 + 1
        let outMonth = mp + (mp < 10 ? 3 : -9)
        z = yoe2 + era2 * 400 + (outMonth <= 2 ? 1 : 0)
        func pad(_ value: Int, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        return "\(pad(z, 4))-\(pad(outMonth, 2))-\(pad(outDay, 2))T\(pad(rest / 3_600_000, 2)):\(pad(rest / 60000 % 60, 2)):"
            + "\(pad(rest / 1000 % 60, 2)).\(pad(rest % 1000, 3))Z"
    }

    /// The wire text.
    var text: String { "\(physical)|\(logical)|\(node)" }

    static func < (lhs: OriginClock, rhs: OriginClock) -> Bool {
        (lhs.physical, lhs.logical, lhs.node) < (rhs.physical, rhs.logical, rhs.node)
    }
}
