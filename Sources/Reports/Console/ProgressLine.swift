/// The live line a run keeps on a terminal while cases play: how many cases are done of how
/// many, how many failed, and the time so far, e.g. `accord: 12/40 cases, 1 failed, 3.2 s`.
/// Rendering only; the runner writes it to standard error and rewrites it in place.
public struct ProgressLine: Sendable, Hashable {
    /// Cases (suites) that have ended.
    public var done: Int
    /// Cases the run plays in all.
    public var total: Int
    /// Ended cases with a failed or errored testcase.
    public var failed: Int
    /// Seconds since the run started.
    public var elapsed: Double

    /// Makes a progress line.
    /// - Parameters:
    ///   - done: cases ended.
    ///   - total: cases in all.
    ///   - failed: ended cases that failed.
    ///   - elapsed: seconds so far.
    public init(done: Int, total: Int, failed: Int, elapsed: Double) {
        self.done = done
        self.total = total
        self.failed = failed
        self.elapsed = elapsed
    }

    /// The line's text, without a line end.
    public var text: String {
        let tenths = Int((max(0, elapsed) * 10).rounded())
        return "accord: \(done)/\(total) \(total == 1 ? "case" : "cases"), \(failed) failed, \(tenths / 10).\(tenths % 10) s"
    }

    /// The bytes that replace the line on a terminal: a carriage return, the text, erase to the end of the line.
    public var redraw: String { "\r\(text)\u{1B}[K" }

    /// The bytes that erase the line, so other output starts at the left margin.
    public static let erase = "\r\u{1B}[K"
}
