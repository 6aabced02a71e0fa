import KizunaWire

/// What one pushOnce of the engine did: the engine's own account, which a driver adapter maps onto
/// its protocol.
public struct PushReport: Sendable, Hashable {
    /// What happened.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// A push request was sent and its response handled.
        case sent
        /// The outbox was empty: no request.
        case nothing
        /// RESET_REQUIRED is latched: no request.
        case blocked
    }

    /// What happened.
    public var outcome: Outcome
    /// How many mutations the request carried (0 unless `sent`).
    public var mutations: Int
    /// The signal the response carried, if any.
    public var signal: SignalType?

    /// Makes a push report.
    /// - Parameters:
    ///   - outcome: what happened.
    ///   - mutations: the mutations sent.
    ///   - signal: the response's signal.
    public init(outcome: Outcome, mutations: Int = 0, signal: SignalType? = nil) {
        self.outcome = outcome
        self.mutations = mutations
        self.signal = signal
    }
}

/// How one pull of the engine ended, in the engine's own terms.
public struct PullReport: Sendable, Hashable {
    /// How the pull ended.
    public enum Outcome: String, Sendable, Hashable, CaseIterable {
        /// A `has_more:false` page closed the checkpoint and it was committed.
        case closed
        /// The page budget was spent and the checkpoint is still open (staged, invisible).
        case staged
        /// A response carried a signal; staging was handled as the signal requires.
        case signal
        /// RESET_REQUIRED is latched: no request.
        case blocked
    }

    /// How the pull ended.
    public var outcome: Outcome
    /// The durably persisted cursor afterwards.
    public var cursor: String
    /// How many pull responses were consumed.
    public var pages: Int
    /// The signal, when `outcome` is `signal`.
    public var signal: SignalType?

    /// Makes a pull report.
    /// - Parameters:
    ///   - outcome: how the pull ended.
    ///   - cursor: the persisted cursor.
    ///   - pages: the responses consumed.
    ///   - signal: the signal, if any.
    public init(outcome: Outcome, cursor: String, pages: Int, signal: SignalType? = nil) {
        self.outcome = outcome
        self.cursor = cursor
        self.pages = pages
        self.signal = signal
    }
}
