/// What a protocol's rules fold over (issue 38): how one of its trace events is read into what
/// its rules observe, and which session it belongs to. KizunaSync (`KizunaSync.Trace`) and PowerSync
/// (`PowerSync.Trace`) are its conformers; a third protocol is a third conformer, its rules
/// conformers of `Rule` with it as their profile, and `Checker` runs them unchanged.
public protocol RuleProfile: Sendable {
    /// A raw event of a trace: an exchange, a stream line, a set of client-state checks.
    associatedtype Event: Sendable
    /// What the rules fold over: the event decoded strictly.
    associatedtype Observation: Sendable
    /// What a fold starts from (the trace's server settings, or nothing).
    associatedtype Settings: Sendable

    /// Reads one event: the session whose folds observe it and the decoded observation, or nil
    /// when the rules have nothing to fold; a part that does not decode is a finding.
    static func read(_ event: Event, at location: StepLocation, into findings: inout [Finding]) -> (
        session: String, observation: Observation
    )?

    /// Whether an event counts as examined (an exchange or line the rules were given to read).
    static func examines(_ event: Event) -> Bool

    /// Where an event is.
    static func location(of event: Event) -> StepLocation

    /// The rules a checker runs unless told others, in the order they run.
    static var rules: [any Rule<Self>.Type] { get }
}

/// A rule over a trace of one profile, written as a pure fold: it sees each observation of one
/// session in order and appends findings, holding only the little state it needs, so a trace of
/// any length is checked in bounded memory.
public protocol Rule<Profile>: Sendable {
    /// The protocol whose traces it folds over.
    associatedtype Profile: RuleProfile
    /// The rule ids this rule reports.
    static var ruleIDs: [RuleID] { get }
    /// Starts a fold for one session.
    init(settings: Profile.Settings)
    /// Folds one observation in; violations go to `findings`.
    mutating func observe(_ observation: Profile.Observation, at location: StepLocation, into findings: inout [Finding])
}

/// The one trace checker of every profile: reads each event through its profile, keeps one set of
/// rule folds per session, and returns the findings each event produced.
public struct Checker<Profile: RuleProfile>: Sendable {
    /// A rule's fold, started from the settings.
    typealias Start = @Sendable (Profile.Settings) -> any Rule<Profile>

    private let settings: Profile.Settings
    private let starts: [Start]
    private var sessions: [String: [any Rule<Profile>]] = [:]
    /// How many exchanges (or stream lines) were examined.
    public private(set) var examined = 0

    /// A checker running `rules` (the profile's own by default), each session's folds started
    /// from `settings`.
    public init(settings: Profile.Settings, rules: [any Rule<Profile>.Type] = Profile.rules) {
        self.settings = settings
        self.starts = rules.map { rule in { rule.init(settings: $0) } }
    }

    /// Folds one event into its session's rules; returns the findings it produced.
    public mutating func observe(_ event: Profile.Event) -> [Finding] {
        var findings: [Finding] = []
        if Profile.examines(event) { examined += 1 }
        let location = Profile.location(of: event)
        guard let (session, observation) = Profile.read(event, at: location, into: &findings) else { return findings }
        var rules = sessions.removeValue(forKey: session) ?? starts.map { $0(settings) }
        for index in rules.indices { rules[index].observe(observation, at: location, into: &findings) }
        sessions[session] = rules
        return findings
    }
}

extension Checker where Profile.Settings == Void {
    /// A checker of a profile whose rules take no settings, running `rules` (its own by default).
    public init(rules: [any Rule<Profile>.Type] = Profile.rules) {
        self.init(settings: (), rules: rules)
    }
}
