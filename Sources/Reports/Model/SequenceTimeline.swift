/// What a suite's sequence picture draws: the lifelines (each client session, then the server)
/// and the events between and on them, in the order the case plays them.
///
/// The lanes build it from the case (a transcript's steps, a recording's exchanges); the HTML
/// report draws it. Other reports ignore it.
public struct SequenceTimeline: Sendable, Hashable {
    /// One vertical line of the picture: a client session or the server.
    public struct Lifeline: Sendable, Hashable {
        /// Which side of the protocol the lifeline stands for.
        public enum Role: String, Sendable, Hashable {
            /// A client session (a user and client id).
            case client
            /// The server under test or the golden one.
            case server
        }

        /// The label on top, e.g. "client …0001" or "server".
        public var name: String
        /// Client or server.
        public var role: Role

        /// Makes a lifeline.
        public init(name: String, role: Role) {
            self.name = name
            self.role = role
        }
    }

    /// The lifelines, left to right.
    public var lifelines: [Lifeline]
    /// The events, top to bottom.
    public var events: [SequenceEvent]
    /// How many events were left out at the end to keep the picture bounded (long recordings).
    public var omitted: Int

    /// The most events a timeline keeps; later ones are counted in `omitted`.
    public static let eventLimit = 400

    /// Makes a timeline.
    /// - Parameters:
    ///   - lifelines: the lifelines, left to right.
    ///   - events: the events, in order.
    ///   - omitted: events left out at the end.
    public init(lifelines: [Lifeline], events: [SequenceEvent] = [], omitted: Int = 0) {
        self.lifelines = lifelines
        self.events = events
        self.omitted = omitted
    }

    /// Appends an event, or counts it in `omitted` once `eventLimit` events are kept.
    public mutating func append(_ event: SequenceEvent) {
        if events.count < Self.eventLimit { events.append(event) } else { omitted += 1 }
    }
}
