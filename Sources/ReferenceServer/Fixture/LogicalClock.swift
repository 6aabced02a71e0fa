#if canImport(Glibc)
    import Glibc
#endif

/// The logical clock of the fixture contract: step n is `2026-01-01T00:00:<n>.000Z`.
enum LogicalClock {
    /// The timestamp of a step, rolling seconds over into minutes and hours past 59.
    static func timestamp(step: Int) -> String {
        let total = max(step, 0)
        let hours = total / 3600
        let minutes = (total / 60) % 60
        let seconds = total % 60
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
        return "2026-01-01T\(two(hours)):\(two(minutes)):\(two(seconds)).000Z"
    }

    /// The current UTC time as `YYYY-MM-DDTHH:MM:SS.mmmZ`.
    static func wallClock() -> String {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        var seconds = time_t(spec.tv_sec)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let text = String(value)
            return String(repeating: "0", count: max(0, width - text.count)) + text
        }
        let milliseconds = Int32(spec.tv_nsec / 1_000_000)
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2)).\(pad(milliseconds, 3))Z"
    }
}
