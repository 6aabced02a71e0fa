import Corpus
import JSON
import PowerSyncWire

extension PowerSync.RecordingToTranscript {
    /// Where a fixture call made while a sync stream was open happened on that stream.
    struct Moment: Hashable {
        /// The index of the stream's exchange in the recording.
        var stream: Int
        /// The stream's last NDJSON line that had arrived when the call was made (1-based).
        var afterLine: Int
        /// When the call was made (`at_ms`), to keep the calls of one stream in their order.
        var at: Double
    }

    /// The `source` and `replicate` fixture calls made while a sync stream was open, by their
    /// index in the recording: the stream's exchange is written when the stream closes, after
    /// the calls made during it, so the call is the stream's `during` step at the last line that
    /// had arrived when it was made (the stream's `line_ms`). A call made before the stream's
    /// first line, or one of a recording without `line_ms`, keeps its place.
    /// - Parameter exchanges: the recording's exchanges, in file order.
    /// - Returns: the moments, by exchange index.
    static func moments(in exchanges: [RecordedExchange]) -> [Int: Moment] {
        var moments: [Int: Moment] = [:]
        for (streamIndex, stream) in exchanges.enumerated() {
            guard case .step(let step) = stream.powerSyncStep, case .syncStream = step.action, let arrivals = stream.lineMilliseconds
            else { continue }
            let end = stream.atMilliseconds + stream.durationMilliseconds
            for (index, call) in exchanges.enumerated() where index < streamIndex && moments[index] == nil {
                guard case .fixture(let fixture, accepted: true) = call.powerSyncStep, fixture == .source || fixture == .replicate,
                    call.atMilliseconds > stream.atMilliseconds, call.atMilliseconds < end
                else { continue }
                let afterLine = arrivals.prefix(while: { $0 <= call.atMilliseconds }).count
                guard afterLine >= 1 else { continue }
                moments[index] = Moment(stream: streamIndex, afterLine: afterLine, at: call.atMilliseconds)
            }
        }
        return moments
    }

    /// A source-side step as the grammar writes it, `during` a stream step when `moment` says so.
    /// - Parameters:
    ///   - exchange: the fixture call (`source` or `replicate`).
    ///   - fixture: which.
    ///   - n: the step number.
    ///   - during: the stream's step number and the line, or nil.
    /// - Returns: the step.
    static func sourceStep(_ exchange: RecordedExchange, _ fixture: PowerSync.Surface.Fixture, n: Int, during: (step: Int, afterLine: Int)?)
        -> JSONValue
    {
        var step: JSONObject = fixture == .source ? exchange.request.objectValue ?? [:] : [:]
        step["n"] = .number(JSONNumber(n))
        step["kind"] = .string(fixture == .source ? "source" : "replicate")
        if let during {
            step["during"] = ["step": .number(JSONNumber(during.step)), "after_line": .number(JSONNumber(during.afterLine))]
        }
        return .object(step)
    }
}
