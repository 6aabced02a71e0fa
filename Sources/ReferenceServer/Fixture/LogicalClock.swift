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
}
