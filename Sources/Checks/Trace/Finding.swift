import KizunaWire

/// A rule id: "I-5" for an upstream invariant, "AC-…" for Accord's own rules.
public struct RuleID: Sendable, Hashable, Comparable, CustomStringConvertible, ExpressibleByStringLiteral {
    /// The id text.
    public let rawValue: String

    /// Makes an id.
    /// - Parameter rawValue: the id text.
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// Makes an id from a literal.
    /// - Parameter value: the id text.
    public init(stringLiteral value: String) { self.rawValue = value }

    /// The id text.
    public var description: String { rawValue }

    /// Orders ids as people read them: upstream invariants by number, then Accord's rules.
    public static func < (lhs: RuleID, rhs: RuleID) -> Bool { lhs.sortKey < rhs.sortKey }

    private var sortKey: (Int, Int, String) {
        if rawValue.hasPrefix("I-") {
            let digits = rawValue.dropFirst(2).prefix(while: \.isNumber)
            return (0, Int(digits) ?? 0, rawValue)
        }
        return (1, 0, rawValue)
    }
}

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

    /// Makes a location.
    /// - Parameters:
    ///   - number: the number.
    ///   - label: what it is.
    ///   - unit: what the number counts.
    ///   - line: the file line.
    public init(number: Int, label: String, unit: Unit = .step, line: Int? = nil) {
        self.number = number
        self.label = label
        self.unit = unit
        self.line = line
    }

    /// "step 7 push" or "exchange 12 pull (line 13)".
    public var description: String {
        var text = "\(unit.rawValue) \(number) \(label)"
        if let line { text += " (line \(line))" }
        return text
    }
}

/// One rule violation found in a trace: a value, never a thrown error.
public struct Finding: Sendable, Hashable, CustomStringConvertible {
    /// The rule broken.
    public var ruleID: RuleID
    /// The step or exchange; nil for a file-level finding.
    public var location: StepLocation?
    /// The offending value, relative to the step (e.g. /response/verdicts/1).
    public var pointer: JSONPointer
    /// What is wrong, in one line.
    public var message: String
    /// What the rule expected, when there is a single expected value.
    public var expected: JSONValue?
    /// What the trace holds there.
    public var actual: JSONValue?

    /// Makes a finding.
    /// - Parameters:
    ///   - ruleID: the rule.
    ///   - location: the step.
    ///   - pointer: the offending value.
    ///   - message: what is wrong.
    ///   - expected: the expected value.
    ///   - actual: the actual value.
    public init(
        _ ruleID: RuleID, at location: StepLocation?, pointer: JSONPointer, _ message: String, expected: JSONValue? = nil,
        actual: JSONValue? = nil
    ) {
        self.ruleID = ruleID
        self.location = location
        self.pointer = pointer
        self.message = message
        self.expected = expected
        self.actual = actual
    }

    /// "step 7 push: I-5 verdict 1 answers …, expected … (at /response/verdicts/1/mutation_id)".
    public var description: String {
        let at = pointer.tokens.isEmpty ? "" : " (at \(pointer))"
        return "\(location?.description ?? "file"): \(ruleID) \(message)\(at)"
    }
}
