extension RuleCatalog {
    static let pushRules: [RuleDescriptor] = [
        transcriptRule(
            "I-5", "verdict bijection", .trace,
            "A verdicts response carries one verdict per pushed mutation, in request order, with the same mutation ids and no duplicates; abort and signal arms are exempt.",
            source: "upstream invariant I-5; D-verdict-correlation; engine-errors VERDICT_BIJECTION",
            passing: [Fixture.push(1, mutations: twoInserts, response: Fixture.verdicts(Fixture.applied(1), Fixture.applied(2)))],
            violating: [Fixture.push(1, mutations: twoInserts, response: Fixture.verdicts(Fixture.applied(1)))]),
        transcriptRule(
            "AC-ABORT-ATOMIC", "abort only answers an atomic batch", .trace,
            "A batch abort outcome answers only a batch sent with atomic:true (MALFORMED_PUSH_RESPONSE otherwise).",
            source: "D-atomic-batch-abort; PROTOCOL-NOTES §2",
            passing: [abortedBatch(atomic: true, offender: 2)], violating: [abortedBatch(atomic: false, offender: 2)]),
        transcriptRule(
            "AC-OFFENDER", "offender is a batch member", .trace,
            "An aborted batch names as offender one of the batch's own mutations (UNKNOWN_BATCH_OFFENDER otherwise).",
            source: "D-atomic-batch-abort; upstream I-5 abort shape; engine-errors UNKNOWN_BATCH_OFFENDER",
            passing: [abortedBatch(atomic: true, offender: 1)], violating: [abortedBatch(atomic: true, offender: 9)]),
        transcriptRule(
            "AC-REASON", "closed set of rejection reasons", .decoding,
            "A rejection reason is one of PRECONDITION, RLS_DENIED, COLUMN_DENIED, CONSTRAINT, DELETE_WINS, SUPERSEDED (UNKNOWN_VERDICT_REASON).",
            source: "D-rejection-reasons; engine-errors UNKNOWN_VERDICT_REASON",
            passing: [oneInsert(answered: Fixture.verdicts(Fixture.rejected(1, reason: "RLS_DENIED")))],
            violating: [oneInsert(answered: Fixture.verdicts(Fixture.rejected(1, reason: "NOT_ALLOWED")))]),
        transcriptRule(
            "AC-VERDICT-KIND", "closed set of verdict kinds", .decoding,
            "A verdict is applied or rejected; no other kind decodes (MALFORMED_PUSH_RESPONSE).",
            source: "common.schema.json#/$defs/verdict; engine-errors MALFORMED_PUSH_RESPONSE",
            passing: [oneInsert(answered: Fixture.verdicts(Fixture.applied(1)))],
            violating: [oneInsert(answered: #"{"verdicts":[{"mutation_id":"\#(Fixture.mutation(1))","verdict":"deferred"}]}"#)]),
    ]

    /// The mutations of the two-row batches: inserts of rows 1 and 2.
    private static let twoInserts = [Fixture.insert(1), Fixture.insert(2)]

    /// A push of rows 1 and 2, sent `atomic` or not, answered with an abort naming `offender`.
    private static func abortedBatch(atomic: Bool, offender: Int) -> String {
        Fixture.push(1, atomic: atomic, mutations: twoInserts, response: Fixture.abort(offender: offender))
    }

    /// A push of row 1 answered with `response`.
    static func oneInsert(answered response: String) -> String {
        Fixture.push(1, mutations: [Fixture.insert(1)], response: response)
    }
}
