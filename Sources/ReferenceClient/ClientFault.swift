import KizunaWire

/// The seeded faults of the kit's self-test: each breaks the client rule it is named after; all are off by default.
public enum ClientFault: KebabNamed {
    /// Ignores the RESET_REQUIRED soft-block latch and keeps sending RPCs.
    case pushAfterReset
    /// pushOnce sends only the first member of an atomic run.
    case splitAtomicRun
    /// After a push fails with REMOTE, the head entry gets a fresh mutation id.
    case newIDOnResend
    /// Commits each `has_more:true` page and its cursor at once instead of staging it.
    case commitStagedPage
    /// Accepts push verdicts that do not match the mutations one to one, applying what it can.
    case skipBijectionCheck
    /// A pending update replayed over an absent or tombstoned row makes the row visible again.
    case resurrectUnderTombstone
    /// A local write commits the row and the outbox entry in two transactions.
    case twoTransactionWrite
    /// The closing pull commits the cursor in its own transaction before the rows.
    case cursorBeforeData
    /// Opens a store under another user or client than the one it was created for, outbox included.
    case shareStoreAcrossIdentities
    /// A local write whose commit fails with `STORE` is answered as done.
    case ackFailedWrite
    /// After a pull page fails to commit with `STORE`, the durable cursor is dropped back to `"0"`.
    case dropCursorOnFailedCommit
}

extension ClientFault {
    /// The rule the fault breaks, in one line for help texts.
    public var summary: String {
        switch self {
        case .pushAfterReset: "keeps sending RPCs while RESET_REQUIRED is latched"
        case .splitAtomicRun: "pushOnce sends only the first member of an atomic run"
        case .newIDOnResend: "a resend after REMOTE carries a fresh mutation_id"
        case .commitStagedPage: "commits each has_more:true page and its cursor at once"
        case .skipBijectionCheck: "accepts verdicts that do not match the mutations one to one"
        case .resurrectUnderTombstone: "a pending update makes a tombstoned row visible again"
        case .twoTransactionWrite: "a local write commits row and outbox entry separately"
        case .cursorBeforeData: "the closing pull commits the cursor before the rows"
        case .shareStoreAcrossIdentities: "another identity opens the store and sends its outbox"
        case .ackFailedWrite: "a local write whose commit failed is reported as done"
        case .dropCursorOnFailedCommit: "a failed page commit drops the durable cursor"
        }
    }
}
