/// What the self-test found for one mutant.
public struct MutantResult: Sendable, Hashable {
    /// The mutant.
    public var mutant: Mutant
    /// The first failure that killed it; nil when it survived every lane.
    public var kill: MutantKill?
    /// How long its lanes took, in seconds.
    public var seconds: Double

    /// True when some rule caught the fault.
    public var killed: Bool { kill != nil }
}
