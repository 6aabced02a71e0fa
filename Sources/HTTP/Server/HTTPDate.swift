import Glibc
import Synchronization

/// The IMF-fixdate of RFC 9110 §5.6.7, e.g. "Mon, 30 Nov 2026 12:00:00 GMT".
package enum HTTPDate {
    private static let days = ["Sun", "Mon", "Tue", "Wed", "Thu", "Fri", "Sat"]
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
    /// The last second formatted: every answer within a second carries the same date.
    private static let last = Mutex<(second: Int, text: String)>((-1, ""))

    /// The current time as an IMF-fixdate.
    package static func now() -> String {
        let second = time(nil)
        if let cached = last.withLock({ $0.second == second ? $0.text : nil }) { return cached }
        let text = format(second)
        last.withLock { $0 = (second, text) }
        return text
    }

    /// A time as an IMF-fixdate.
    /// - Parameter seconds: seconds since the epoch.
    /// - Returns: the date text.
    static func format(_ seconds: Int) -> String {
        var seconds = seconds
        var parts = tm()
        _ = gmtime_r(&seconds, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        let day = days[Int(parts.tm_wday) % 7]
        let month = months[Int(parts.tm_mon) % 12]
        return
            "\(day), \(two(parts.tm_mday)) \(month) \(parts.tm_year + 1900) \(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec)) GMT"
    }
}
