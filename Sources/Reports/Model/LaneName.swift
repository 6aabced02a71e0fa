/// Which lane produced a suite, as its `lane` property names it in every report (issue 38: the
/// lane travels typed, not as text read back in several places).
public enum LaneName: String, Sendable, Hashable, CaseIterable {
    /// The server lane (`accord run --server`).
    case server
    /// The client lane (`accord run --client`).
    case client
    /// The client lane's kill matrix (`--kill-matrix`).
    case clientKillMatrix = "client-kill-matrix"
    /// The client lane's storage faults (`--storage-faults`).
    case clientStorageFaults = "client-storage-faults"
    /// The offline check (`accord check`).
    case check
    /// Two servers compared (`accord diff`).
    case diff
    /// Generated scenarios (`accord explore`).
    case explore
}

extension SuiteResult.Property {
    /// The name of the property that says which lane produced a suite.
    public static let laneName = "lane"

    /// The `lane` property.
    public static func lane(_ lane: LaneName) -> SuiteResult.Property {
        SuiteResult.Property(name: laneName, value: lane.rawValue)
    }
}

extension Array where Element == SuiteResult.Property {
    /// The lane these properties name; nil when none, or one Accord does not know.
    public var lane: LaneName? { first { $0.name == SuiteResult.Property.laneName }.flatMap { LaneName(rawValue: $0.value) } }
}
