import JSON
import PowerSyncWire

/// PS-CHECKSUM and PS-PRIORITY, one fold because they judge the same moment (a completion)
/// from the same sums and must not blame one break twice.
///
/// PS-CHECKSUM: at a completion, each bucket it covers has received ops whose checksums add up
/// (wrapping u32) to the bucket's checkpoint checksum, as the SDK core counts them: PUT, REMOVE
/// and MOVE add their checksums; a CLEAR replaces the sum with its own. A sum is known when the
/// client held nothing of the bucket (no position, or 0), when it carries over from an earlier
/// stream of the trace at the same position, or from the bucket's latest CLEAR; else it is not judged.
///
/// PS-PRIORITY: a `partial_checkpoint_complete` at priority N covers exactly the buckets at
/// priority N or higher (a number at most N), so it comes only once their data is complete: a
/// covered bucket whose data for the same checkpoint still follows the partial completion was
/// claimed too early. A `checkpoint_complete` covers every bucket. A partial completion's
/// checksum mismatch is held until the checkpoint ends: data that follows for the bucket makes it
/// PS-PRIORITY, else PS-CHECKSUM. A last data line's `has_more: true` is no incompleteness by
/// itself: PowerSync's service ends a batch with it when its size limit is reached, and when the
/// next batch finds nothing more the completion follows at once (powersync-service 332d649,
/// packages/service-core/src/sync/sync.ts `bucketDataBatch`: an empty chunk is not sent, lines
/// 476-485; storage/SyncRulesBucketStorage.ts `getBucketDataBatch`, lines 138-150). The SDK
/// core judges a completion by its checksums, as these rules do.
public struct CoverageRule: Rule {
    /// Folds PowerSync traces.
    public typealias Profile = PowerSync.Trace
    /// The rules reported.
    public static let ruleIDs: [RuleID] = ["PS-CHECKSUM", "PS-PRIORITY"]

    private var tallies = BucketTallies()
    private var view = CheckpointView()
    /// Covered buckets whose sums did not match at a partial completion, not yet blamed.
    private var suspects: [String: Suspect] = [:]

    private struct Suspect: Sendable {
        var location: StepLocation
        var priority: Int
        var expected: Checksum
        var actual: Checksum
    }

    /// Starts a fold.
    public init(settings: Void = ()) {}

    /// Adds up each bucket's ops and judges completions.
    public mutating func observe(_ event: PowerSync.Trace.Observation, at location: StepLocation, into findings: inout [Finding]) {
        switch event {
        case .streamOpened(let request):
            settle(into: &findings)
            view.reset()
            tallies.open(request)
        case .streamClosed: settle(into: &findings)
        case .line(.data(let data)):
            if !data.ops.isEmpty, let suspect = suspects.removeValue(forKey: data.bucket) {
                findings.append(
                    Finding(
                        "PS-PRIORITY", at: suspect.location, pointer: JSONPointer(tokens: ["partial_checkpoint_complete", "priority"]),
                        "a partial completion at priority \(suspect.priority) covers bucket \(data.bucket) before its data: ops for it follow at NDJSON line \(location.streamLine ?? 0)"
                    ))
            }
            tallies.add(data)
        case .line(.partialCheckpointComplete(_, let priority)): partial(priority, at: location, into: &findings)
        case .line(.checkpointComplete):
            settle(into: &findings)
            judge(view.buckets, key: "checkpoint_complete", at: location, into: &findings)
        case .line(let line):
            settle(into: &findings)
            for name in view.apply(line) { tallies.forget(name) }
        default: break
        }
    }

    private mutating func partial(_ priority: Int, at location: StepLocation, into findings: inout [Finding]) {
        for bucket in view.covered(by: priority) {
            if let sum = tallies.sum(bucket.bucket), sum != bucket.checksum, suspects[bucket.bucket] == nil {
                suspects[bucket.bucket] = Suspect(location: location, priority: priority, expected: bucket.checksum, actual: sum)
            }
        }
    }

    /// The checkpoint is over (a new one, its completion, or the stream's end): held mismatches are checksum findings.
    private mutating func settle(into findings: inout [Finding]) {
        for (name, suspect) in suspects.sorted(by: { $0.key < $1.key }) {
            findings.append(
                mismatch(name, key: "partial_checkpoint_complete", expected: suspect.expected, actual: suspect.actual, at: suspect.location)
            )
            tallies.discard(name)
        }
        suspects = [:]
    }

    private mutating func judge(_ buckets: [BucketChecksum], key: String, at location: StepLocation, into findings: inout [Finding]) {
        for bucket in buckets {
            guard let sum = tallies.sum(bucket.bucket), sum != bucket.checksum else { continue }
            findings.append(mismatch(bucket.bucket, key: key, expected: bucket.checksum, actual: sum, at: location))
            tallies.discard(bucket.bucket)
        }
    }

    private func mismatch(_ bucket: String, key: String, expected: Checksum, actual: Checksum, at location: StepLocation) -> Finding {
        Finding(
            "PS-CHECKSUM", at: location, pointer: JSONPointer(tokens: [key]),
            "bucket \(bucket): its ops add up to \(actual), but the checkpoint says \(expected)", expected: expected.json,
            actual: actual.json)
    }
}
