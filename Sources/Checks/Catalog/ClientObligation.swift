/// A client obligation the client lane checks (PROTOCOL-NOTES §4): stable id, statement,
/// source, and how the lane observes it. These are not trace folds: the lane judges them from
/// the requests the client sends to the mock and the state its driver reports.
public struct ClientObligation: Sendable, Hashable {
    /// The stable id, e.g. `CL-REQUEST`.
    public var obligation: ObligationID
    /// One sentence: what a conforming client does.
    public var statement: String
    /// Where the obligation comes from.
    public var source: String
    /// How the lane sees a violation.
    public var observed: String

    /// The stable id as reports carry it.
    public var id: String { obligation.rawValue }

    /// Every client obligation, in report order.
    public static let all: [ClientObligation] =
        [
            ClientObligation(
                obligation: .request,
                statement:
                    "Each RPC the client sends is the golden request: POST to /rest/v1/rpc/<rpc> with the Authorization, apikey, Content-Type, Accept and Content-Profile headers, and a body equal to the golden one after canonicalization (bucket order aside; an hlc the client stamps is checked for its node, not its time).",
                source: "PROTOCOL-NOTES §1, §4; corpus rpc steps",
                observed: "the mock compares each request with the step's golden request"),
            ClientObligation(
                obligation: .resend,
                statement:
                    "After an uncertain ack (drop-ack) or a transport error, the next RPC resends the same mutations, ids and watermark.",
                source: "PROTOCOL-NOTES §4 (session guarantees, exactly-once effect)",
                observed: "the request after a fault step differs from its golden request"),
            ClientObligation(
                obligation: .atomicRun,
                statement: "pushOnce sends the whole consecutive run of an atomic group as one atomic batch and never splits it.",
                source: "PROTOCOL-NOTES §4",
                observed: "a golden atomic batch arrives split, merged or with atomic:false"),
            ClientObligation(
                obligation: .outcome,
                statement:
                    "The driver reports what happened: a push sent the golden number of mutations, a pull closed, staged or stopped on the golden signal, and a fault answers REMOTE.",
                source: "docs/driver-protocol.md §5.4–5.5",
                observed: "the push or pull result disagrees with the step"),
            ClientObligation(
                obligation: .checkpoint,
                statement:
                    "The durable cursor moves only when a has_more:false page commits, together with its rows; staged pages stay invisible and a failure or signal leaves the cursor where it was.",
                source: "PROTOCOL-NOTES §3, §4 (atomic checkpoints)",
                observed: "the cursor a pull reports, and no-intermediate-commit asserts"),
            ClientObligation(
                obligation: .softBlock,
                statement: "After RESET_REQUIRED the client is soft-blocked: it makes no further RPC, and push and pull answer blocked.",
                source: "PROTOCOL-NOTES §4 (schema-version signalling)",
                observed: "the lane probes with a push and a pull after the signal; any request fails"),
            ClientObligation(
                obligation: .wireStrict,
                statement:
                    "A response that breaks the wire contract is refused with its code (e.g. VERDICT_BIJECTION) and changes nothing.",
                source: "PROTOCOL-NOTES §2, §4",
                observed: "an rpc step's expect_error (Accord's own cases)"),
            ClientObligation(
                obligation: .expectError,
                statement: "A refused local write answers the step's engine code and leaves the outbox unchanged.",
                source: "corpus local steps with expect_error; spec/engine-errors.json",
                observed: "the write's error code and the outbox depth after it"),
            ClientObligation(
                obligation: .localRow,
                statement: "The locally readable row is the one the case expects (absent when deleted, never resurrected).",
                source: "corpus local-row checks", observed: "state rows"),
            ClientObligation(
                obligation: .cursor, statement: "The durably persisted cursor is the one the case expects.", source: "corpus cursor checks",
                observed: "state cursor"),
            ClientObligation(
                obligation: .outboxDepth, statement: "The number of pending outbox entries is the one the case expects.",
                source: "corpus outbox-depth checks", observed: "state outbox_depth"),
            ClientObligation(
                obligation: .event, statement: "The engine raised the event the case expects since the store was opened.",
                source: "corpus event checks; spec/engine-events.json", observed: "state events"),
            ClientObligation(
                obligation: .driver,
                statement: "The driver speaks accord-driver/1: it answers every request in time with a well-formed line and exits cleanly.",
                source: "docs/driver-protocol.md", observed: "timeouts, crashes and bad answer lines"),
            ClientObligation(
                obligation: .lostEdit,
                statement:
                    "After SIGKILL and a reopen of the same store, every write answered before the kill is present, rows and outbox as they were durable; a write killed before its answer is durable whole (row and outbox entry) or not at all, and no queued mutation is missing from a later push.",
                source: "seeds/cksyncengine-crash-recovery.txt; PROTOCOL-NOTES §4, §6; docs/kill-matrix.md",
                observed: "kill matrix: state after the restart against the state before the kill, and the pushes after it"),
            ClientObligation(
                obligation: .doubleApply,
                statement:
                    "A mutation whose push answer the client consumed is never pushed again: each mutation id is answered as applied at most once across kills and restarts.",
                source: "PROTOCOL-NOTES §2 (exactly-once effect), §6", observed: "kill matrix: the lane's ledger of consumed answers"),
            ClientObligation(
                obligation: .cursorAhead,
                statement:
                    "After a restart the cursor is the last committed checkpoint, never a staged continuation, and a committed checkpoint has its rows: cursor and data are one recovery unit.",
                source: "PROTOCOL-NOTES §3, §4, §6", observed: "kill matrix: the cursor and the transfer's rows after the restart"),
            ClientObligation(
                obligation: .outboxOrder,
                statement: "After a restart the outbox is pushed in issue order.",
                source: "PROTOCOL-NOTES §4", observed: "kill matrix: a push after the restart carries the golden ids in another order"),
            ClientObligation(
                obligation: .journalOnce,
                statement: "Each rejection is journaled exactly once: a restart neither loses a journal entry nor repeats one.",
                source: "PROTOCOL-NOTES §4; seeds/cksyncengine-crash-recovery.txt (no duplicate side effects)",
                observed: "kill matrix: journal entries keyed by mutation id and reason"),
            ClientObligation(
                obligation: .killSoftBlock,
                statement:
                    "A latched RESET_REQUIRED soft block survives a restart: push and pull still make no request and answer blocked.",
                source: "PROTOCOL-NOTES §4", observed: "kill matrix: a push and a pull after the restart"),
            ClientObligation(
                obligation: .identity,
                statement:
                    "A store reopened under another user or client never sends (or shows as pending) the previous identity's outbox; refusing the open is conforming.",
                source: "seeds/cksyncengine-crash-recovery.txt (account changes); PROTOCOL-NOTES §6",
                observed: "kill matrix: open, state and push under another identity"),
            ClientObligation(
                obligation: .falseSuccess,
                statement:
                    "An operation whose store writes, fsyncs or renames fail (EIO or ENOSPC) does not report success: a write, push, pull or open the client answered as done is durable.",
                source:
                    "seeds/cksyncengine-crash-recovery.txt (serialization-write failures are not silently ignored); docs/storage-faults.md",
                observed: "storage faults: the driver's answer to the command run while libfiu fails its writes"),
            ClientObligation(
                obligation: .storeError,
                statement:
                    "A failed store operation reaches the driver's answer as the engine error STORE (spec/engine-errors.json), not as a DRIVER_* protocol error, another engine code, a bad line, a hang or a crash.",
                source:
                    "seeds/cksyncengine-crash-recovery.txt (surface storage errors distinctly); spec/engine-errors.json; docs/driver-protocol.md §7",
                observed: "storage faults: the code of the failed answer"),
            ClientObligation(
                obligation: .ackedLost,
                statement:
                    "A storage failure loses nothing the client acknowledged before it: rows, outbox entries and journal entries durable before the fault are there after it, in the same process and after a restart.",
                source: "seeds/cksyncengine-crash-recovery.txt; PROTOCOL-NOTES §4, §6; docs/storage-faults.md",
                observed: "storage faults: state after the fault (and after a restart) against the state before it"),
            ClientObligation(
                obligation: .failedApplied,
                statement:
                    "Nothing the client reported failed shows up as applied: the failed operation leaves rows, outbox and journal as they were, and no request reaches the server while the failure is handled.",
                source: "seeds/cksyncengine-crash-recovery.txt; PROTOCOL-NOTES §4; docs/storage-faults.md",
                observed: "storage faults: state after the fault against the state before it, and the mock's requests"),
            ClientObligation(
                obligation: .faultCursor,
                statement:
                    "A storage failure never leaves the durable cursor ahead of its data and never discards it: after a failed page or checkpoint commit the cursor is the last committed one (a row of the failed page that becomes visible is SF-FAILED-APPLIED).",
                source:
                    "seeds/cksyncengine-crash-recovery.txt (retry transient failures without discarding the checkpoint); PROTOCOL-NOTES §3, §4",
                observed: "storage faults: the cursor and rows after a failed staged page or closing commit"),
        ] + powerSync
}
