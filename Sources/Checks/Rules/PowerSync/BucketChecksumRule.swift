import KizunaWire
import PowerSyncWire

/// PS-CHECKSUM: at a completion, each bucket it covers whose data is complete has received ops
/// whose checksums add up (wrapping u32) to the bucket's checksum in the checkpoint, as the SDK
/// core counts them: every PUT, REMOVE and MOVE adds its checksum; a CLEAR replaces the sum with
/// its own checksum (it stands for every op before it). A bucket's sum is known when the client
/// held nothing of it (no position, or position 0), when it carries over from an earlier stream
/// of the trace at the same position, or from its latest CLEAR; otherwise it is not judged.
public struct BucketChecksumRule: PowerSyncRule {
    /// The rule reported.
    public static let ruleIDs: [RuleID] = ["PS-CHECKSUM"]

    /// What the trace knows of one bucket: the sum of its ops (nil: unknown), its position and
    /// whether its last data line said more follows.
    private struct Tally: Sendable {
        var sum: Checksum?
        var position: OpID
        var pending: Bool
    }

    private var tallies: [String: Tally] = [:]
    /// The sum a bucket the trace has not seen starts from: zero, or unknown after a request that did not decode.
    private var unseen: Checksum? = .zero
    private var view = CheckpointView()

    /// Starts a fold.
    public init() {}

    /// Adds up each bucket's ops and judges completions.
    /// - Parameters:
    ///   - event: the event.
    ///   - location: where it is.
    ///   - findings: where violations go.
    public mutating func observe(_ event: PowerSyncExchange, at location: StepLocation, into findings: inout [Finding]) {
        switch event {
        case .streamOpened(let request): open(request)
        case .line(.data(let data)):
            var tally = tallies[data.bucket] ?? Tally(sum: unseen, position: .zero, pending: false)
            for op in data.ops { tally.sum = op.op == .clear ? op.checksum : tally.sum.map { $0 + op.checksum } }
            tally.position = data.nextAfter
            tally.pending = data.hasMore
            tallies[data.bucket] = tally
        case .line(.checkpointComplete): judge(view.covered(by: nil), key: "checkpoint_complete", at: location, into: &findings)
        case .line(.partialCheckpointComplete(_, let priority)):
            judge(view.covered(by: priority), key: "partial_checkpoint_complete", at: location, into: &findings)
        case .line(let line):
            for name in view.apply(line) { tallies[name] = Tally(sum: .zero, position: .zero, pending: false) }
        default: break
        }
    }

    /// A new stream: a bucket keeps its sum only when the client asks from where the trace left it.
    private mutating func open(_ request: SyncStreamRequest?) {
        view.reset()
        guard let request else {
            tallies = [:]
            unseen = nil
            return
        }
        var next: [String: Tally] = [:]
        for position in request.buckets where position.after != .zero {
            if let carried = tallies[position.name], carried.position == position.after {
                next[position.name] = Tally(sum: carried.sum, position: carried.position, pending: false)
            } else {
                next[position.name] = Tally(sum: nil, position: position.after, pending: false)
            }
        }
        tallies = next
        unseen = .zero
    }

    private mutating func judge(_ buckets: [BucketChecksum], key: String, at location: StepLocation, into findings: inout [Finding]) {
        for bucket in buckets {
            let tally = tallies[bucket.bucket] ?? Tally(sum: unseen, position: .zero, pending: false)
            guard !tally.pending, let sum = tally.sum else { continue }
            if sum != bucket.checksum {
                findings.append(
                    Finding(
                        "PS-CHECKSUM", at: location, pointer: JSONPointer(tokens: [key]),
                        "bucket \(bucket.bucket): its ops add up to \(sum), but the checkpoint says \(bucket.checksum)",
                        expected: bucket.checksum.json, actual: sum.json))
                // The client discards the bucket's data; its sum is unknown until it syncs again.
                tallies[bucket.bucket] = Tally(sum: nil, position: tally.position, pending: false)
            }
        }
    }
}
