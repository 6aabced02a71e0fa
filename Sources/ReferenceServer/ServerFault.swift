import KizunaWire

/// The seeded faults of the kit's self-test in the reference server: each is a plausible bug in
/// the server's own push or pull code path, named after the rule it breaks; all are off by default.
public enum ServerFault: KebabNamed {
    /// The final page's cursor is one past the stream position it covers.
    case cursorPlusOne
    /// A non-atomic batch answers its verdicts in reverse request order.
    case verdictsReordered
    /// A non-atomic batch answers without the last mutation's verdict.
    case verdictDropped
    /// A non-atomic batch answers the first mutation's verdict twice.
    case duplicateVerdict
    /// An aborted atomic batch keeps the effects of the siblings applied before the offender.
    case abortNonAtomic
    /// An aborted atomic batch names the offender's primary key instead of its mutation id.
    case offenderOutsideBatch
    /// A pull under RESET_REQUIRED still scans and delivers the page, with the signal set.
    case signalWithRows
    /// A page takes one entry more than the limit allows.
    case pageOverLimit
    /// A page that reached the high-water mark still says has_more.
    case hasMoreOnShortPage
    /// A page lists its rows newest first.
    case unsortedPage
    /// The cursor forgets the seqs of transactions still open, so their rows are skipped later.
    case holeDropped
    /// A repeated mutation id is applied again instead of answered from the ledger.
    case replayAppliesAgain
    /// Column types and NOT NULL are checked after the write, and a rejected mutation's savepoint is released.
    case rejectedLeavesEffect
    /// Tombstones never reach a pull.
    case tombstoneNotDelivered
    /// Pushes skip the row-visibility (RLS) checks.
    case rlsNotEnforced
    /// Mutation preconditions are never evaluated.
    case preconditionIgnored
    /// Arrival-order tables keep the first write of a column instead of the last.
    case arrivalOrderReversed
    /// HLC tables resolve by arrival order, ignoring the column clocks.
    case hlcIgnored
    /// Push and pull skip the schema gate: no RESET_REQUIRED for an old schema version.
    case softBlockMissing
    /// A cursor below the reap horizon is served instead of answered CHECKPOINT_EXPIRED.
    case checkpointNeverExpires
}

extension ServerFault {
    /// The rule the fault breaks, as the self-test's table names it.
    public var rule: String {
        switch self {
        case .cursorPlusOne: "I-3 cursor covers exactly the page"
        case .verdictsReordered, .verdictDropped, .duplicateVerdict: "I-5 one verdict per mutation, in order"
        case .abortNonAtomic: "AC-ABORT-ATOMIC no sibling effect"
        case .offenderOutsideBatch: "AC-OFFENDER offender is a batch member"
        case .signalWithRows: "I-8 a signal page carries no data"
        case .pageOverLimit: "I-9 a page holds at most limit entries"
        case .hasMoreOnShortPage: "I-9 has_more only when the page stopped early"
        case .unsortedPage: "I-10 (seq, table, pk) order"
        case .holeDropped: "I-4 open seqs stay holes in the cursor"
        case .replayAppliesAgain: "exactly-once: a replay answers from the ledger"
        case .rejectedLeavesEffect: "a rejected mutation has no effect"
        case .tombstoneNotDelivered: "deletes reach every client that saw the row"
        case .rlsNotEnforced: "RLS: a caller writes only rows it can see"
        case .preconditionIgnored: "PRECONDITION verdict on a stale precondition"
        case .arrivalOrderReversed: "arrival order: the last write wins"
        case .hlcIgnored: "hlc: the later clock wins per column"
        case .softBlockMissing: "RESET_REQUIRED below min_schema_version"
        case .checkpointNeverExpires: "CHECKPOINT_EXPIRED below the reap horizon"
        }
    }
}
