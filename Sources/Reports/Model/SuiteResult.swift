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
    /// The case's requests, answers, writes, changes, faults and kills, for the HTML report's
    /// sequence picture; nil when the lane drew none.
    public var timeline: SequenceTimeline? = nil
    /// The outcomes of cases run but not kept (a recording checked with no report file keeps
    /// only the exchanges that did not pass); counted in `tally`.
    public var notKept = Tally()

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

    /// The counts of this suite's cases by outcome, those not kept included.
    public var tally: Tally {
        var tally = notKept
        for result in cases { tally.add(result.outcome) }
        return tally
    }
}
