import KizunaWire
import PowerSyncWire

extension PowerSync {
    /// A seeded fault of the embedded PowerSync service, for `accord selftest`: each breaks one PS
    /// rule and is named after it (docs/mutation-score.md).
    public enum ServiceFault: KebabNamed {
        /// `checkpoint_complete` names the op before the checkpoint's `last_op_id` (PS-COMPLETE).
        case completeStaleLastOpID
        /// Every bucket checksum in a checkpoint or diff is one more than its ops add up to (PS-CHECKSUM).
        case checksumOffByOne
        /// A partial completion names the priority of the next batch, claiming its buckets early (PS-PRIORITY).
        case partialClaimsNextPriority
        /// A newer write checkpoint is acknowledged as one below the last one the user and client
        /// were acknowledged, on any stream: a stale read (PS-WRITE-CHECKPOINT).
        case writeCheckpointGoesBack
        /// A checkpoint request stores the submitted id even when it is below the held one (PS-REQUEST-ID).
        case requestIDMovesBack
        /// A diff removes every known bucket the user does not hold, not only those its checkpoint had (PS-DIFF).
        case diffRemovesUnheldBucket
        /// A data page's `after` is one behind the client's position, so pages do not chain (PS-OP-ORDER).
        case dataAfterDoesNotChain

        /// Every name starts with `ps-`, the prefix of the rules the faults break.
        public static let namePrefix = "ps-"

        /// The rule the fault breaks.
        public var rule: String {
            switch self {
            case .completeStaleLastOpID: "PS-COMPLETE"
            case .checksumOffByOne: "PS-CHECKSUM"
            case .partialClaimsNextPriority: "PS-PRIORITY"
            case .writeCheckpointGoesBack: "PS-WRITE-CHECKPOINT"
            case .requestIDMovesBack: "PS-REQUEST-ID"
            case .diffRemovesUnheldBucket: "PS-DIFF"
            case .dataAfterDoesNotChain: "PS-OP-ORDER"
            }
        }
    }
}
