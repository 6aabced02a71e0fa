import JSON
import KizunaWire
import ServerContract

/// `rpc/push`: the schema gate, the table gates, then one verdict per mutation in request order
/// (each in its own savepoint), or for an atomic batch one abort outcome and no sibling effect.
struct PushHandler {
    let store: Store
    let config: EffectiveConfig
    let now: String
    /// Seeded faults switched on (self-test only).
    var faults: Set<ServerFault> = []

    func handle(_ body: JSONValue, as identity: Identity) throws(ReferenceServerError) -> RPCReply {
        let request: PushRequest
        do {
            request = try PushRequest(json: body)
        } catch {
            return RequestErrors.reply(for: error)
        }
        if request.schemaVersion < config.minSchemaVersion && !faults.contains(.softBlockMissing) {
            return RPCReply(status: 200, body: PushResponse.signal(.resetRequired).json)
        }
        for mutation in request.mutations {
            guard let table = config.tables[mutation.table] else {
                return .error(status: 404, code: "42P01", message: "relation \"\(mutation.table)\" is not a synced table")
            }
            if table.schema.pullOnly {
                return .error(status: 400, code: "KZP01", message: "table \"\(mutation.table)\" is pull-only")
            }
        }
        // A write to a table resolved by hlc carries its origin clock; one without refuses the
        // batch, as upstream's SQL pack's push guard and its reference oracle do ("mutation carries
        // no hlc (fail loud)"); the reference made one up until `accord explore` found it (issue 39).
        for (index, mutation) in request.mutations.enumerated() where mutation.hlc == nil && config.tables[mutation.table]?.hlcMode == true
        {
            return .error(
                status: 400, code: "22023",
                message:
                    "kizunasync.push(): mutation \(index + 1) of the batch is malformed: table \"\(mutation.table)\" resolves by hlc and the mutation carries no hlc"
            )
        }
        if request.atomic && request.mutations.count > config.maxAtomicBatch {
            return .error(
                status: 400, code: "KZP02",
                message: "an atomic batch of \(request.mutations.count) exceeds max_batch_size \(config.maxAtomicBatch)")
        }
        var ids = Set<String>()
        for mutation in request.mutations where !ids.insert(mutation.mutationID).inserted {
            return .error(
                status: 400, code: "22023",
                message: "mutation_id \(mutation.mutationID) appears twice in one batch; each mutation is applied exactly once")
        }
        guard let client = request.clientID ?? identity.session else {
            return .error(
                status: 400, code: "22023", message: "no client id: the body names no client_id and the JWT has no session_id claim")
        }
        let caller = Caller(user: identity.user, client: client)
        let applier = MutationApplier(push: self, caller: caller, pushStart: try store.meta(.nextSeq))
        let response = try store.db.transaction { () throws(ReferenceServerError) -> PushResponse in
            request.atomic ? try atomic(request.mutations, applier: applier) : try each(request.mutations, applier: applier)
        }
        return RPCReply(status: 200, body: response.json)
    }

    /// A non-atomic batch: every mutation gets its verdict; a rejected one leaves no effect.
    private func each(_ mutations: [Mutation], applier: MutationApplier) throws(ReferenceServerError) -> PushResponse {
        var verdicts: [Verdict] = []
        for mutation in mutations {
            if !faults.contains(.replayAppliesAgain), let replayed = try replay(mutation, caller: applier.caller) {
                verdicts.append(verdict(mutation.mutationID, replayed))
                continue
            }
            try store.db.savepoint("mutation")
            let outcome = try outcome(of: mutation, applier: applier)
            if case .rejected = outcome, !faults.contains(.rejectedLeavesEffect) {
                try store.db.rollback(to: "mutation")
            } else {
                try store.db.release("mutation")
            }
            if faults.contains(.replayAppliesAgain), try store.ledger(mutation.mutationID) != nil {
                verdicts.append(verdict(mutation.mutationID, outcome))
                continue
            }
            try record(mutation, outcome, caller: applier.caller)
            verdicts.append(verdict(mutation.mutationID, outcome))
        }
        return .verdicts(shaped(verdicts))
    }

    /// An atomic batch: all applied, or the first rejection aborts it and nothing commits.
    private func atomic(_ mutations: [Mutation], applier: MutationApplier) throws(ReferenceServerError) -> PushResponse {
        try store.db.savepoint("batch")
        var verdicts: [Verdict] = []
        var applied: [(Mutation, MutationOutcome)] = []
        for mutation in mutations {
            var outcome: MutationOutcome
            if !faults.contains(.replayAppliesAgain), let replayed = try replay(mutation, caller: applier.caller) {
                outcome = replayed
            } else {
                outcome = try self.outcome(of: mutation, applier: applier)
            }
            if case .rejected(let reason, let row) = outcome {
                // The offender's row as the failing statement saw it (sibling effects included),
                // as upstream's increment/007 pins; nothing of the batch commits.
                if faults.contains(.abortNonAtomic) {
                    try store.db.release("batch")
                } else {
                    try store.db.rollback(to: "batch")
                }
                let offender = faults.contains(.offenderOutsideBatch) ? mutation.pk : mutation.mutationID
                return .aborted(BatchAbort(offenderMutationID: offender, reason: reason, serverRow: row))
            }
            applied.append((mutation, outcome))
            verdicts.append(verdict(mutation.mutationID, outcome))
        }
        for (mutation, outcome) in applied where try store.ledger(mutation.mutationID) == nil {
            try record(mutation, outcome, caller: applier.caller)
        }
        try store.db.release("batch")
        return .verdicts(verdicts)
    }

    private func outcome(of mutation: Mutation, applier: MutationApplier) throws(ReferenceServerError) -> MutationOutcome {
        guard let table = config.tables[mutation.table] else { return .rejected(.rlsDenied, serverRow: nil) }
        return try applier.apply(mutation, in: table)
    }

    /// The recorded verdict of a repeated mutation id: the owner gets it with the row as it is
    /// now; anyone else gets RLS_DENIED with no row (D-verdict-ownership).
    private func replay(_ mutation: Mutation, caller: Caller) throws(ReferenceServerError) -> MutationOutcome? {
        guard let entry = try store.ledger(mutation.mutationID) else { return nil }
        guard entry.user == caller.user else { return .rejected(.rlsDenied, serverRow: nil) }
        let row = try config.tables[entry.table].flatMap { (table) throws(ReferenceServerError) in
            caller.render(try store.row(entry.table, entry.pk), in: table)
        }
        switch entry.verdict {
        case .applied(let hasRow): return .applied(serverRow: hasRow ? row : nil)
        case .rejected(let reason): return .rejected(reason, serverRow: row)
        }
    }

    private func record(_ mutation: Mutation, _ outcome: MutationOutcome, caller: Caller) throws(ReferenceServerError) {
        let verdict: LedgerEntry.Verdict =
            switch outcome {
            case .applied(let row): .applied(hasRow: row != nil)
            case .rejected(let reason, _): .rejected(reason)
            }
        let entry = LedgerEntry(user: caller.user, verdict: verdict, table: mutation.table, pk: mutation.pk)
        try store.record(mutation.mutationID, client: caller.client, entry: entry)
    }

    /// The verdict list as the response carries it (where the verdict faults bite).
    private func shaped(_ verdicts: [Verdict]) -> [Verdict] {
        var verdicts = verdicts
        if faults.contains(.verdictsReordered) { verdicts.reverse() }
        if faults.contains(.verdictDropped) { verdicts = Array(verdicts.dropLast()) }
        if faults.contains(.duplicateVerdict), let first = verdicts.first { verdicts.append(first) }
        return verdicts
    }

    private func verdict(_ id: String, _ outcome: MutationOutcome) -> Verdict {
        switch outcome {
        case .applied(let row): .applied(mutationID: id, serverRow: row)
        case .rejected(let reason, let row): .rejected(mutationID: id, reason: reason, serverRow: row)
        }
    }
}
