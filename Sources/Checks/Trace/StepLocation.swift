/// Where in a trace something happened: a transcript step or a recording exchange.
public struct StepLocation: Sendable, Hashable, CustomStringConvertible {
    /// What the number counts.
    public enum Unit: String, Sendable, Hashable {
        /// A transcript step `n`.
        case step
        /// A recording exchange number.
        case exchange
    }

    /// The step or exchange number.
    public var number: Int
    /// What it is, e.g. "push", "pull", "assert".
    public var label: String
    /// What the number counts.
    public var unit: Unit
    /// The file line, for recordings.
    public var line: Int?
    /// The 1-based line of the NDJSON stream within the exchange (a PowerSync sync stream).
    public var streamLine: Int?

    /// Makes a location.
    /// - Parameters:
    ///   - number: the number.
    ///   - label: what it is.
    ///   - unit: what the number counts.
    ///   - line: the file line.
    ///   - streamLine: the NDJSON line within the exchange.
    public init(number: Int, label: String, unit: Unit = .step, line: Int? = nil, streamLine: Int? = nil) {
        self.number = number
        self.label = label
        self.unit = unit
        self.line = line
        self.streamLine = streamLine
    }

    /// "step 7 push", "exchange 12 pull (line 13)" or "step 2 sync-stream NDJSON line 4".
    public var description: String {
        var text = "\(unit.rawValue) \(number) \(label)"
        if let streamLine { text += " NDJSON line \(streamLine)" }
        if let line { text += " (line \(line))" }
        return text
    }
}
