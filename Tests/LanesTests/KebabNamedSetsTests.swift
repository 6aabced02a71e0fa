import Corpus
import Harness
import KizunaWire
import Lanes
import PowerSyncWire
import ReferenceClient
import ReferencePowerSync
import ReferencePowerSyncClient
import ReferenceServer
import Reports
import ServerContract
import Testing

/// The kit's kebab-named sets spell every name exactly as they did when each case carried its
/// name as a raw value: the tables below are those raw values, so renaming a case fails here
/// before it changes a flag value, an `ACCORD_KILL_AT` hook, a JUnit id or a mutant's name.
@Suite("kebab-named sets")
struct KebabNamedSetsTests {
    /// Every case of the set is in the table, in declaration order, and goes by the table's name both ways.
    private func expectNames<Named: KebabNamed>(_ table: [(Named, String)]) {
        #expect(table.map(\.0) == Array(Named.allCases))
        for (member, name) in table {
            #expect(member.rawValue == name)
            #expect(Named(rawValue: name) == member)
        }
        #expect(!(Named.self is any CustomStringConvertible.Type), "a description would replace the case name")
        #expect(!(Named.self is any CustomDebugStringConvertible.Type), "a debug description would replace the case name")
        #expect(!(Named.self is any TextOutputStreamable.Type), "a stream form would replace the case name")
    }

    @Test("KillHook names are unchanged")
    func killHook() {
        expectNames([
            (KillHook.afterLocalWrite, "after-local-write"),
            (KillHook.afterPushAnswered, "after-push-answered"),
            (KillHook.beforeClosingCommit, "before-closing-commit"),
            (KillHook.afterRequestCreated, "after-request-created"),
            (KillHook.midCheckpoint, "mid-checkpoint"),
            (KillHook.afterCheckpointApplied, "after-checkpoint-applied"),
        ])
    }

    @Test("KillPoint names are unchanged")
    func killPoint() {
        expectNames([
            (KillPoint.afterLocalWrite, "after-local-write"),
            (KillPoint.afterPushSent, "after-push-sent"),
            (KillPoint.afterPushAnswered, "after-push-answered"),
            (KillPoint.betweenPages, "between-pages"),
            (KillPoint.beforeClosingCommit, "before-closing-commit"),
            (KillPoint.softBlock, "soft-block"),
            (KillPoint.identityChange, "identity-change"),
        ])
    }

    @Test("StorageFaultPoint names are unchanged")
    func storageFaultPoint() {
        expectNames([
            (StorageFaultPoint.localWrite, "local-write"),
            (StorageFaultPoint.inFlightPush, "in-flight-push"),
            (StorageFaultPoint.verdictApply, "verdict-apply"),
            (StorageFaultPoint.stagedPage, "staged-page"),
            (StorageFaultPoint.closingCommit, "closing-commit"),
            (StorageFaultPoint.identityChange, "identity-change"),
        ])
    }

    @Test("ClientFault names are unchanged")
    func clientFault() {
        expectNames([
            (ClientFault.pushAfterReset, "push-after-reset"),
            (ClientFault.splitAtomicRun, "split-atomic-run"),
            (ClientFault.newIDOnResend, "new-id-on-resend"),
            (ClientFault.commitStagedPage, "commit-staged-page"),
            (ClientFault.skipBijectionCheck, "skip-bijection-check"),
            (ClientFault.resurrectUnderTombstone, "resurrect-under-tombstone"),
            (ClientFault.twoTransactionWrite, "two-transaction-write"),
            (ClientFault.cursorBeforeData, "cursor-before-data"),
            (ClientFault.shareStoreAcrossIdentities, "share-store-across-identities"),
            (ClientFault.ackFailedWrite, "ack-failed-write"),
            (ClientFault.dropCursorOnFailedCommit, "drop-cursor-on-failed-commit"),
        ])
    }

    @Test("ServerFault names are unchanged")
    func serverFault() {
        expectNames([
            (ServerFault.cursorPlusOne, "cursor-plus-one"),
            (ServerFault.verdictsReordered, "verdicts-reordered"),
            (ServerFault.verdictDropped, "verdict-dropped"),
            (ServerFault.duplicateVerdict, "duplicate-verdict"),
            (ServerFault.abortNonAtomic, "abort-non-atomic"),
            (ServerFault.offenderOutsideBatch, "offender-outside-batch"),
            (ServerFault.signalWithRows, "signal-with-rows"),
            (ServerFault.pageOverLimit, "page-over-limit"),
            (ServerFault.hasMoreOnShortPage, "has-more-on-short-page"),
            (ServerFault.unsortedPage, "unsorted-page"),
            (ServerFault.holeDropped, "hole-dropped"),
            (ServerFault.replayAppliesAgain, "replay-applies-again"),
            (ServerFault.rejectedLeavesEffect, "rejected-leaves-effect"),
            (ServerFault.tombstoneNotDelivered, "tombstone-not-delivered"),
            (ServerFault.rlsNotEnforced, "rls-not-enforced"),
            (ServerFault.preconditionIgnored, "precondition-ignored"),
            (ServerFault.arrivalOrderReversed, "arrival-order-reversed"),
            (ServerFault.hlcIgnored, "hlc-ignored"),
            (ServerFault.softBlockMissing, "soft-block-missing"),
            (ServerFault.checkpointNeverExpires, "checkpoint-never-expires"),
        ])
    }

    @Test("PowerSync.ServiceFault names are unchanged")
    func powerSyncFault() {
        expectNames([
            (PowerSync.ServiceFault.completeStaleLastOpID, "ps-complete-stale-last-op-id"),
            (PowerSync.ServiceFault.checksumOffByOne, "ps-checksum-off-by-one"),
            (PowerSync.ServiceFault.partialClaimsNextPriority, "ps-partial-claims-next-priority"),
            (PowerSync.ServiceFault.writeCheckpointGoesBack, "ps-write-checkpoint-goes-back"),
            (PowerSync.ServiceFault.requestIDMovesBack, "ps-request-id-moves-back"),
            (PowerSync.ServiceFault.diffRemovesUnheldBucket, "ps-diff-removes-unheld-bucket"),
            (PowerSync.ServiceFault.dataAfterDoesNotChain, "ps-data-after-does-not-chain"),
        ])
    }

    @Test("PowerSync.ClientFault names are unchanged")
    func powerSyncClientFault() {
        expectNames([
            (PowerSync.ClientFault.waitResolvesOnPartial, "wait-resolves-on-partial"),
            (PowerSync.ClientFault.waitResolvesMidCheckpoint, "wait-resolves-mid-checkpoint"),
            (PowerSync.ClientFault.idsRestartAfterReset, "ids-restart-after-reset"),
            (PowerSync.ClientFault.applyWithUploadsPending, "apply-with-uploads-pending"),
            (PowerSync.ClientFault.applyBeforeWriteCheckpoint, "apply-before-write-checkpoint"),
            (PowerSync.ClientFault.applyChecksumMismatch, "apply-checksum-mismatch"),
            (PowerSync.ClientFault.timeoutReportedAsResolved, "timeout-reported-as-resolved"),
            (PowerSync.ClientFault.syncedStateNotRecovered, "synced-state-not-recovered"),
        ])
    }

    @Test("SequenceEvent.Kind names are unchanged")
    func sequenceEventKind() {
        expectNames([
            (SequenceEvent.Kind.request, "request"),
            (SequenceEvent.Kind.answer, "answer"),
            (SequenceEvent.Kind.lostAnswer, "lost-answer"),
            (SequenceEvent.Kind.fault, "fault"),
            (SequenceEvent.Kind.localWrite, "local-write"),
            (SequenceEvent.Kind.serverChange, "server-change"),
            (SequenceEvent.Kind.kill, "kill"),
            (SequenceEvent.Kind.check, "check"),
        ])
    }

    @Test("Expectations.Outcome names are unchanged")
    func expectationsOutcome() {
        expectNames([
            (Expectations.Outcome.pass, "pass"),
            (Expectations.Outcome.bound, "bound"),
            (Expectations.Outcome.notApplicable, "not-applicable"),
            (Expectations.Outcome.skipped, "skipped"),
            (Expectations.Outcome.knownFailing, "known-failing"),
        ])
    }

    @Test("TargetCapabilities.SeqStamping names are unchanged")
    func seqStamping() {
        expectNames([
            (TargetCapabilities.SeqStamping.atWrite, "at-write"),
            (TargetCapabilities.SeqStamping.atCommit, "at-commit"),
        ])
    }
}
