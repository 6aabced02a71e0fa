import PowerSyncWire

/// A PowerSync rule: a `Rule` over `PowerSyncTrace`, which sees each decoded event of one
/// transcript or recording (stream openings, lines, ends, write checkpoints, checkpoint requests)
/// in order; a line's location carries its NDJSON line, and a line's finding points into it.
public protocol PowerSyncRule: Rule where Profile == PowerSyncTrace {
    /// Starts a fold (PowerSync's rules take no settings).
    init()
}

extension PowerSyncRule {
    /// Starts a fold; the settings are nothing.
    public init(settings: Void) { self.init() }
}
