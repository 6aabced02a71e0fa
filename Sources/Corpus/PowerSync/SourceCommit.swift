import JSON
import KizunaWire

/// A source step: one transaction committed in the service's source database, replicated at
/// once unless `replicated` is false, at the start of the step or at a moment of an open stream.
public struct SourceCommit: Sendable, Hashable {
    /// The changes, in order (op ids follow this order).
    public var changes: [SourceChange]
    /// Whether the service replicates the transaction as it commits (default true).
    public var replicated: Bool
    /// The open stream it happens during, if any.
    public var during: StreamMoment?
    /// Whether Accord inferred it from a recording's streams (`"inferred": true`) rather than a
    /// fixture call or a case stating it: what it holds was read off the answers it explains, so
    /// the rules take no held id from it.
    public var inferred = false

    /// Makes a commit.
    /// - Parameters:
    ///   - changes: the changes.
    ///   - replicated: whether it replicates at once.
    ///   - during: the open stream's moment, if any.
    public init(changes: [SourceChange], replicated: Bool = true, during: StreamMoment? = nil) {
        self.changes = changes
        self.replicated = replicated
        self.during = during
    }
}

/// A moment inside an open sync stream: after the stream of step `step` has answered NDJSON line
/// `afterLine`. A source or replicate step that names one happens while that stream is open, so
/// the service answers it on the same stream (a `checkpoint_diff` and its data).
public struct StreamMoment: Sendable, Hashable {
    /// The sync-stream step whose stream is open.
    public var step: Int
    /// The 1-based NDJSON line after which it happens.
    public var afterLine: Int

    /// Makes a moment.
    /// - Parameters:
    ///   - step: the sync-stream step.
    ///   - afterLine: the NDJSON line.
    public init(step: Int, afterLine: Int) {
        self.step = step
        self.afterLine = afterLine
    }
}

extension StreamMoment {
    /// Reads the optional `during` member of a source or replicate step.
    /// - Parameters:
    ///   - reader: the step's reader.
    ///   - pointer: the step's pointer.
    /// - Returns: the moment, or nil.
    /// - Throws: `WireError` (.json) naming the pointer.
    static func read(_ reader: inout ObjectReader, at pointer: JSONPointer) throws(WireError) -> StreamMoment? {
        guard let value = reader.optional("during") else { return nil }
        var during = try ObjectReader(value, at: pointer.appending("during"), malformed: .json)
        let moment = StreamMoment(step: try during.integer("step"), afterLine: try during.integer("after_line"))
        try during.finish()
        return moment
    }
}
