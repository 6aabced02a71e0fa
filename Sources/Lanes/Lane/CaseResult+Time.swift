import Harness
import Reports

extension Array where Element == CaseResult {
    /// Gives the test cases appended since `index` the time spent since `started`, shared evenly
    /// when one piece of work (a postcondition block's state read) produced several; a case that
    /// already carries its own time keeps it.
    /// - Parameters:
    ///   - index: the count of cases before the work.
    ///   - started: when the work started.
    mutating func stamp(from index: Int, since started: ContinuousClock.Instant) {
        guard index < count else { return }
        let share = RunClock.seconds(since: started) / Double(count - index)
        for position in index..<count where self[position].time == 0 { self[position].time = share }
    }
}
