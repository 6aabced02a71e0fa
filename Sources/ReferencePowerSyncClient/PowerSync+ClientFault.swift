import KizunaWire
import PowerSyncWire

extension PowerSync {
    /// A seeded fault of the reference PowerSync client, each named after the client obligation it
    /// breaks; `accord driver --profile powersync --fault NAME` switches one on so the client lane
    /// can be shown to catch it.
    public enum ClientFault: KebabNamed {
        /// `wait-for-sync` resolves once a partial completion covers the request.
        case waitResolvesOnPartial
        /// `wait-for-sync` resolves once a covering checkpoint is announced, before its data is complete.
        case waitResolvesMidCheckpoint
        /// After a local reset, request ids restart at 1 and ignore the id the backend holds.
        case idsRestartAfterReset
        /// A checkpoint is applied while local writes wait to upload.
        case applyWithUploadsPending
        /// A checkpoint is applied before its write checkpoint reaches the client's own request.
        case applyBeforeWriteCheckpoint
        /// A checkpoint whose checksums do not match is applied anyway.
        case applyChecksumMismatch
        /// A wait that times out answers resolved.
        case timeoutReportedAsResolved
        /// After a kill between applying a checkpoint and marking its requests synced, they stay pending.
        case syncedStateNotRecovered

        /// What the fault breaks, for `accord driver --help`.
        public var summary: String {
            switch self {
            case .waitResolvesOnPartial: "wait-for-sync resolves on a partial completion"
            case .waitResolvesMidCheckpoint: "wait-for-sync resolves when a covering checkpoint is announced, mid-checkpoint"
            case .idsRestartAfterReset: "request ids restart at 1 after a local reset, ignoring the backend's"
            case .applyWithUploadsPending: "a checkpoint is applied while local writes wait to upload"
            case .applyBeforeWriteCheckpoint: "a checkpoint is applied before the write checkpoint is reached"
            case .applyChecksumMismatch: "a checkpoint with a checksum mismatch is applied anyway"
            case .timeoutReportedAsResolved: "a wait that times out answers resolved"
            case .syncedStateNotRecovered: "a kill after a checkpoint is applied leaves its requests pending for good"
            }
        }
    }
}
