import JSON
import KizunaWire

extension ClientStore {
    /// The consecutive permanent failures that dead-letter an entry.
    static let deadLetterAttempts = 5

    /// Applies the verdicts of a validated push answer in one transaction: applied entries leave the outbox, advance the
    /// watermark and install their server row (or their own effect); rejected entries leave the outbox, revert their row
    /// to the server row, and are journaled; the push in flight is cleared.
    /// - Parameters:
    ///   - verdicts: the verdicts; with `skip-bijection-check` they are matched to the batch by id, and unmatched ones ignored.
    ///   - batch: the entries that were sent.
    /// - Throws: `ClientError` with `STORE` or `JSON`; nothing is applied then.
    func applyVerdicts(_ verdicts: [Verdict], batch: [OutboxEntry]) throws(ClientError) {
        var raised: [ClientEvent] = []
        var journaled: [ClientJournalEntry] = []
        var watermark = lastMutationID
        try db.transaction { () throws(ClientError) in
            var remaining = batch
            for verdict in verdicts {
                guard let index = remaining.firstIndex(where: { $0.mutation.mutationID == verdict.mutationID }) else { continue }
                let entry = remaining.remove(at: index)
                let mutation = entry.mutation
                try removeEntry(entry.sequence)
                switch verdict {
                case .applied(let id, let serverRow):
                    let base = try readRow(table: mutation.table, pk: mutation.pk).base
                    let confirmed = serverRow ?? replay(mutation, over: base, suppressed: false)
                    try setBase(table: mutation.table, pk: mutation.pk, to: confirmed, shadowing: false)
                    watermark = id
                case .rejected(let id, let reason, let serverRow):
                    try setBase(table: mutation.table, pk: mutation.pk, to: serverRow, shadowing: true)
                    let entry = ClientJournalEntry(
                        table: mutation.table, pk: mutation.pk, reason: reason.rawValue, mutationID: id,
                        data: ["server_row": serverRow.map { .object($0) } ?? .null])
                    try insertJournal(entry)
                    journaled.append(entry)
                    raised.append(
                        ClientEvent(
                            code: "MUTATION_REJECTED", mutationID: id,
                            data: ["pk": .string(mutation.pk), "reason": .string(reason.rawValue), "table": .string(mutation.table)]))
                }
            }
            try db.query("UPDATE sync_state SET last_mutation_id = ? WHERE id = 1", [watermark.map { .text($0) } ?? .null])
            try clearInFlight()
        }
        lastMutationID = watermark
        try finish(raised, journaled)
    }

    /// Applies an atomic abort in one transaction: every batch entry leaves the outbox, the offender's row takes the
    /// server row, the other members fall back to their pre-images, one journal row records the abort, and the push in
    /// flight is cleared.
    /// - Parameters:
    ///   - abort: the abort (validated, or with `skip-bijection-check` not).
    ///   - batch: the entries that were sent.
    /// - Throws: `WireError` `UNKNOWN_BATCH_OFFENDER` when the offender is not in the batch, or `ClientError` with
    ///   `STORE` or `JSON`; nothing is applied then.
    func applyAbort(_ abort: BatchAbort, batch: [OutboxEntry]) throws {
        guard let offenderIndex = batch.firstIndex(where: { $0.mutation.mutationID == abort.offenderMutationID }) else {
            throw WireError(
                .unknownBatchOffender, at: JSONPointer(tokens: ["batch", "offender_mutation_id"]),
                "offender \(abort.offenderMutationID) is not a mutation of the batch")
        }
        let offender = batch[offenderIndex].mutation
        // A server row for a key an earlier member also wrote may carry that member's uncommitted effect
        // (increment/007): the key then falls back to its pre-image like the other members.
        let sharedKey = batch[..<offenderIndex].contains { $0.mutation.table == offender.table && $0.mutation.pk == offender.pk }
        let members = batch.map(\.mutation.mutationID)
        let entry = ClientJournalEntry(
            table: offender.table, pk: offender.pk, reason: abort.reason.rawValue, mutationID: offender.mutationID,
            data: ["members": .array(members.map { .string($0) }), "outcome": "BATCH_ABORTED"])
        try db.transaction { () throws(ClientError) in
            for member in batch { try removeEntry(member.sequence) }
            if !sharedKey {
                try setBase(table: offender.table, pk: offender.pk, to: abort.serverRow, shadowing: true)
            }
            for member in batch { try recompute(table: member.mutation.table, pk: member.mutation.pk) }
            try insertJournal(entry)
            try clearInFlight()
        }
        let event = ClientEvent(
            code: "BATCH_ABORTED", mutationID: offender.mutationID,
            data: ["members": .array(members.map { .string($0) }), "reason": .string(abort.reason.rawValue)])
        try finish([event], [entry])
    }

    /// Latches the RESET_REQUIRED soft block durably, in one transaction with what the signal ends; the event is raised
    /// only when the latch was not already set.
    /// - Parameters:
    ///   - endingPush: the signal answers the push in flight, which is cleared (its entries stay queued).
    ///   - droppingStaging: the signal ends a pull, whose staged pages are dropped.
    /// - Throws: `ClientError` with `STORE`; nothing changes then.
    func latchReset(endingPush: Bool = false, droppingStaging: Bool = false) throws(ClientError) {
        let latched = softBlocked
        if latched && !endingPush && !droppingStaging { return }
        try db.transaction { () throws(ClientError) in
            if droppingStaging { try clearStaging() }
            if endingPush { try clearInFlight() }
            try db.query("UPDATE sync_state SET soft_block = 1 WHERE id = 1")
        }
        if droppingStaging { stagingCursor = nil }
        softBlocked = true
        if !latched { raise("RESET_REQUIRED") }
    }

    /// Charges one permanent failure to the head entry (or its whole atomic group) and dead-letters it on the fifth
    /// consecutive charge, or at once when `atOnce`; the push in flight is cleared in the same transaction.
    /// - Parameters:
    ///   - batch: the entries that were sent.
    ///   - code: the PostgREST error code.
    ///   - atOnce: dead-letter without counting (KZP02 on an atomic batch).
    /// - Returns: whether the charged entries were dead-lettered.
    /// - Throws: `ClientError` with `STORE`.
    @discardableResult
    func charge(_ batch: [OutboxEntry], code: String, atOnce: Bool) throws(ClientError) -> Bool {
        guard let first = batch.first else { return false }
        let charged = first.atomicGroup == nil ? [first] : batch
        let dead = atOnce || charged.contains { $0.attempts + 1 >= Self.deadLetterAttempts }
        var raised: [ClientEvent] = []
        var journaled: [ClientJournalEntry] = []
        try db.transaction { () throws(ClientError) in
            for entry in charged {
                guard dead else {
                    try db.query("UPDATE outbox SET attempts = attempts + 1 WHERE seq = ?", [.integer(entry.sequence)])
                    continue
                }
                let mutation = entry.mutation
                try removeEntry(entry.sequence)
                try recompute(table: mutation.table, pk: mutation.pk)
                let data: JSONObject = ["attempts": .number(JSONNumber(entry.attempts + 1)), "code": .string(code)]
                let record = ClientJournalEntry(
                    table: mutation.table, pk: mutation.pk, reason: "DEAD_LETTER", mutationID: mutation.mutationID, data: data)
                try insertJournal(record)
                journaled.append(record)
                raised.append(ClientEvent(code: "DEAD_LETTER", mutationID: mutation.mutationID, data: data))
            }
            try clearInFlight()
        }
        try finish(raised, journaled)
        return dead
    }

    /// Publishes what a committed transaction raised and journaled, and re-reads the outbox depth.
    private func finish(_ raised: [ClientEvent], _ journaled: [ClientJournalEntry]) throws(ClientError) {
        events += raised
        journal += journaled
        let before = outboxDepth
        try refreshDepth()
        if outboxDepth != before { raiseQueueDepth() }
    }
}
