import JSON
import KizunaWire
import PowerSyncWire

extension PowerSync.Step {
    /// Reads a source-side step (`source`, `replicate`), or nil for any other kind.
    /// - Parameters:
    ///   - kind: the step's `kind`.
    ///   - reader: the step's reader, past `kind` and `n`.
    ///   - pointer: the step's pointer.
    /// - Returns: the action, or nil when the kind is not source-side.
    /// - Throws: `WireError` (.json) naming the pointer.
    static func sourceAction(kind: String, _ reader: inout ObjectReader, at pointer: JSONPointer) throws(WireError) -> Action? {
        switch kind {
        case "source":
            let raw = try reader.array("changes")
            if raw.isEmpty { throw WireError(.json, at: pointer.appending("changes"), "a source step has at least one change") }
            var changes: [SourceChange] = []
            for (index, element) in raw.enumerated() {
                changes.append(try SourceChange(json: element, at: pointer.appending("changes").appending(index)))
            }
            let replicated = reader.has("replicated") ? try reader.bool("replicated") : true
            let during = try StreamMoment.read(&reader, at: pointer)
            var commit = SourceCommit(changes: changes, replicated: replicated, during: during)
            commit.inferred = reader.has("inferred") ? try reader.bool("inferred") : false
            return .source(commit)
        case "replicate":
            return .replicate(during: try StreamMoment.read(&reader, at: pointer))
        default:
            return nil
        }
    }

    /// The open-stream moment a source-side step happens at, if any.
    public var during: StreamMoment? {
        switch action {
        case .source(let commit): commit.during
        case .replicate(let during): during
        case .syncStream, .checkpointRequest, .writeCheckpoint, .client: nil
        }
    }

    /// True for the steps the service's source side performs (no exchange on the wire).
    public var isSourceSide: Bool {
        switch action {
        case .source, .replicate: true
        case .syncStream, .checkpointRequest, .writeCheckpoint, .client: false
        }
    }

    /// Checks that each step's `during` names an earlier sync-stream step and one of its lines,
    /// with only source-side steps of that same stream between them, in line order.
    /// - Parameters:
    ///   - steps: the transcript's steps.
    /// - Returns: the index and error of the first step that breaks it, or nil.
    static func duringError(in steps: [PowerSync.Step]) -> (index: Int, error: WireError)? {
        var open: (step: Int, lines: Int, lastLine: Int)?
        for (index, step) in steps.enumerated() {
            if case .syncStream(_, let lines) = step.action {
                open = (step.n, lines.count, 0)
                continue
            }
            guard let moment = step.during else {
                open = nil
                continue
            }
            let pointer = JSONPointer(tokens: ["steps", String(index), "during"])
            guard let stream = open, stream.step == moment.step else {
                return (
                    index,
                    WireError(
                        .json, at: pointer.appending("step"),
                        "during names step \(moment.step), which is not the sync-stream step just before it")
                )
            }
            let first = max(1, stream.lastLine)
            if moment.afterLine < first || moment.afterLine > stream.lines {
                return (
                    index,
                    WireError(
                        .json, at: pointer.appending("after_line"),
                        "after_line \(moment.afterLine) is not a line of step \(moment.step) from \(first) to \(stream.lines)")
                )
            }
            open = (stream.step, stream.lines, moment.afterLine)
        }
        return nil
    }
}
