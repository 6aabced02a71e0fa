/// A golden transcript: one corpus case's context, steps and postconditions
/// (schemas/transcript.schema.json).
public struct Transcript: Sendable, Hashable {
    /// The case id, `<flow>/<NNN>-<slug>`.
    public var caseID: String
    /// The title.
    public var title: String
    /// Authority citations.
    public var cites: [String]
    /// The status: decided | normative | open-decision | proposed.
    public var status: String
    /// The priority: P0 | P1 | P2.
    public var priority: String
    /// The fencing mechanism: shared | visibility-horizon.
    public var fencing: String
    /// The fixture context.
    public var context: CaseContext
    /// The steps, numbered densely from 1.
    public var steps: [Step]
    /// Client-state checks that hold after the last step.
    public var postconditions: [Check]

    /// Makes a transcript.
    /// - Parameters:
    ///   - caseID: the case id.
    ///   - title: the title.
    ///   - cites: citations.
    ///   - status: the status.
    ///   - priority: the priority.
    ///   - fencing: the fencing mechanism.
    ///   - context: the context.
    ///   - steps: the steps.
    ///   - postconditions: the postconditions.
    public init(
        caseID: String, title: String, cites: [String], status: String, priority: String, fencing: String, context: CaseContext,
        steps: [Step], postconditions: [Check]
    ) {
        self.caseID = caseID
        self.title = title
        self.cites = cites
        self.status = status
        self.priority = priority
        self.fencing = fencing
        self.context = context
        self.steps = steps
        self.postconditions = postconditions
    }

    /// The flow the case belongs to: the part of the id before "/" (e.g. "push").
    public var area: String { caseID.split(separator: "/").first.map(String.init) ?? caseID }
}

extension Transcript {
    /// Whether the transcript was converted from a recording (it cites
    /// `RecordingToTranscript.recordedCite`): its golden seqs are a recorded service's, with gaps
    /// for what other buckets and users wrote, and its times that service's clock, so a server lane
    /// judges them by order and bijection, never density, and times by order alone.
    public var isRecorded: Bool { cites.contains(RecordingToTranscript.recordedCite) }
}
