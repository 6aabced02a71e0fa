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
        public init(name: String, value: String) {
            self.name = name
            self.value = value
        }
    }

    /// Makes a suite result.
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

extension SuiteResult {
    /// The property a live lane's suite counts, in decimal, the steps it left to another lane in:
    /// `left_to_client_lane` (the server lane's client-side steps and postconditions) or
    /// `left_to_server_lane` (the client lane's server changes and reaps). Those steps are not test
    /// cases of the suite: the other lane checks them.
    /// - Parameter lane: the other lane, `client` or `server`.
    /// - Returns: the property name.
    public static func leftToLaneProperty(_ lane: String) -> String { "left_to_\(lane)_lane" }

    /// The property a live lane's suite of a blocked manifest entry names its decisions in; such a
    /// suite holds no test case, since no lane can check the entry yet.
    public static let blockedProperty = "blocked_on"
    /// The property a suite carries when the system under test refused part of it as unsupported
    /// (a driver's DRIVER_UNSUPPORTED or LOCAL_UNSUPPORTED): its value is the reason. Such a suite
    /// counts as skipped, whatever steps passed before the refusal.
    public static let unsupportedProperty = "unsupported"

    /// Why the system under test refused part of the suite, when it did.
    public var unsupported: String? { properties.first { $0.name == Self.unsupportedProperty }?.value }

    /// The steps this suite left to other lanes, by lane, from its `left_to_<lane>_lane` properties.
    public var leftToOtherLanes: [String: Int] {
        var counts: [String: Int] = [:]
        for property in properties where property.name.hasPrefix("left_to_") && property.name.hasSuffix("_lane") {
            let lane = property.name.dropFirst("left_to_".count).dropLast("_lane".count)
            guard !lane.isEmpty, let count = Int(property.value) else { continue }
            counts[String(lane), default: 0] += count
        }
        return counts
    }

    /// Whether this is the suite of a blocked manifest entry in a live lane (a `blocked_on` property).
    public var isBlocked: Bool { properties.contains { $0.name == Self.blockedProperty } }
}
