import Corpus

/// One seeded fault of the self-test: a switch in the reference server or the reference client,
/// named after the rule it breaks.
public struct Mutant: Sendable, Hashable {
    /// Which reference implementation carries the fault.
    public enum Component: String, Sendable, Hashable {
        /// The embedded reference server (played by the server lane).
        case server
        /// The reference client behind `accord driver` (played by the client lane and the kill matrix).
        case client
        /// The reference PowerSync client behind `accord driver --profile powersync` (played by the
        /// client lane over the PowerSync cases).
        case powerSyncClient = "powersync-client"
        /// The embedded PowerSync service (played by the server lane over PowerSync cases).
        case powerSyncService = "powersync-service"
    }

    /// The switch's name, e.g. `cursor-plus-one`.
    public var name: String
    /// The implementation the switch lives in.
    public var component: Component
    /// The rule the fault breaks, in a few words.
    public var rule: String

    /// A fault of the embedded reference server, played by the server lane.
    public static func server(_ name: String, breaks rule: String) -> Mutant {
        Mutant(name: name, component: .server, rule: rule)
    }

    /// A fault of the embedded PowerSync service, played by the server lane over PowerSync cases.
    public static func powerSyncService(_ name: String, breaks rule: String) -> Mutant {
        Mutant(name: name, component: .powerSyncService, rule: rule)
    }

    /// The protocol profile the mutant's component speaks, for the score line.
    public var profile: CorpusProfile {
        switch component {
        case .server, .client: .kizunaSync
        case .powerSyncService, .powerSyncClient: .powerSync
        }
    }

    /// A fault of the reference client, played by the client lane and the kill matrix.
    public static func client(_ name: String, breaks rule: String) -> Mutant {
        Mutant(name: name, component: .client, rule: rule)
    }

    /// A fault of the reference PowerSync client, played by the client lane over the PowerSync cases.
    /// - Parameters:
    ///   - name: the switch's name.
    ///   - rule: the obligation it breaks.
    public static func powerSyncClient(_ name: String, breaks rule: String) -> Mutant {
        Mutant(name: name, component: .powerSyncClient, rule: rule)
    }
}
