/// How one reported test case ended.
public enum CaseOutcome: Sendable, Hashable {
    /// Every rule that examined it held.
    case passed
    /// At least one rule failed.
    case failed([Failure])
    /// Not checked, with the reason (e.g. a blocked manifest entry, or a check the lane cannot run).
    case skipped(String)
    /// The check itself could not run (e.g. a transport error talking to a target).
    case errored(String)
}

/// One rule failure as reports show it.
public struct Failure: Sendable, Hashable {
    /// The rule id, e.g. "I-5"; JUnit's failure type.
    public var ruleID: String
    /// One line, naming the step, e.g. "step 7 push: I-5 verdict 1 answers …".
    public var message: String
    /// Expected versus actual, as canonical JSON text; may be empty.
    public var body: String

    /// Makes a failure.
    /// - Parameters:
    ///   - ruleID: the rule id.
    ///   - message: the one-line message.
    ///   - body: expected versus actual.
    public init(ruleID: String, message: String, body: String = "") {
        self.ruleID = ruleID
        self.message = message
        self.body = body
    }
}

/// One test case: a step, a postcondition, or a file-level check.
public struct CaseResult: Sendable, Hashable {
    /// The unique name within its suite, e.g. "step 07 push".
    public var name: String
    /// The JUnit classname, `kizuna.<area>`.
    public var classname: String
    /// How it ended.
    public var outcome: CaseOutcome
    /// Seconds spent.
    public var time: Double

    /// Makes a case result.
    /// - Parameters:
    ///   - name: the name.
    ///   - classname: the classname.
    ///   - outcome: the outcome.
    ///   - time: seconds spent.
    public init(name: String, classname: String, outcome: CaseOutcome, time: Double = 0) {
        self.name = name
        self.classname = classname
        self.outcome = outcome
        self.time = time
    }
}

/// One suite: a corpus case or a recording.
public struct SuiteResult: Sendable, Hashable {
    /// The case id or recording name.
    public var name: String
    /// The file it came from.
    public var file: String?
    /// Properties such as lane, target, corpus commit, accord version; in order.
    public var properties: [Property]
    /// The cases, in order.
    public var cases: [CaseResult]
    /// Seconds spent.
    public var time: Double

    /// A name/value property.
    public struct Property: Sendable, Hashable {
        /// The name.
        public var name: String
        /// The value.
        public var value: String
        /// Makes a property.
        /// - Parameters:
        ///   - name: the name.
        ///   - value: the value.
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Makes a suite result.
    /// - Parameters:
    ///   - name: the name.
    ///   - file: the file.
    ///   - properties: the properties.
    ///   - cases: the cases.
    ///   - time: seconds spent.
    public init(name: String, file: String? = nil, properties: [Property] = [], cases: [CaseResult] = [], time: Double = 0) {
        self.name = name
        self.file = file
        self.properties = properties
        self.cases = cases
        self.time = time
    }

    /// The counts of this suite's cases by outcome.
    public var tally: Tally {
        var tally = Tally()
        for result in cases { tally.add(result.outcome) }
        return tally
    }
}

/// Counts of outcomes.
public struct Tally: Sendable, Hashable {
    /// All cases.
    public var tests = 0
    /// Passed cases.
    public var passed = 0
    /// Failed cases.
    public var failures = 0
    /// Skipped cases.
    public var skipped = 0
    /// Errored cases.
    public var errors = 0

    /// An empty tally.
    public init() {}

    /// Counts one outcome.
    /// - Parameter outcome: the outcome.
    public mutating func add(_ outcome: CaseOutcome) {
        tests += 1
        switch outcome {
        case .passed: passed += 1
        case .failed: failures += 1
        case .skipped: skipped += 1
        case .errored: errors += 1
        }
    }

    /// Adds another tally.
    /// - Parameter other: the tally to add.
    public mutating func add(_ other: Tally) {
        tests += other.tests
        passed += other.passed
        failures += other.failures
        skipped += other.skipped
        errors += other.errors
    }
}

/// A destination for report bytes; the caller owns the file or stream behind it.
public protocol ReportSink: AnyObject {
    /// Takes the next chunk of bytes.
    /// - Parameter bytes: the bytes.
    /// - Throws: when the destination cannot take them.
    func write(_ bytes: UnsafeRawBufferPointer) throws
}
