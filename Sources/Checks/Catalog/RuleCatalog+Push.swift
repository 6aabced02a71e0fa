extension RuleCatalog {
    static let pushRules: [RuleDescriptor] = [
        RuleDescriptor(
            id: "I-5", title: "verdict bijection",
            statement:
                "A verdicts response carries one verdict per pushed mutation, in request order, with the same mutation ids and no duplicates; abort and signal arms are exempt.",
            source: "upstream invariant I-5; D-verdict-correlation; engine-errors VERDICT_BIJECTION", evaluation: .trace,
            passing: Fixture.steps(
                Fixture.push(
                    1, mutations: [Fixture.insert(1), Fixture.insert(2)], response: Fixture.verdicts(Fixture.applied(1), Fixture.applied(2))
                )),
            violating: Fixture.steps(
                Fixture.push(1, mutations: [Fixture.insert(1), Fixture.insert(2)], response: Fixture.verdicts(Fixture.applied(1)))),
            violatingStep: 1),
        RuleDescriptor(
            id: "AC-ABORT-ATOMIC", title: "abort only answers an atomic batch",
            statement: "A batch abort outcome answers only a batch sent with atomic:true (MALFORMED_PUSH_RESPONSE otherwise).",
            source: "D-atomic-batch-abort; PROTOCOL-NOTES §2", evaluation: .trace,
            passing: Fixture.steps(
                Fixture.push(1, atomic: true, mutations: [Fixture.insert(1), Fixture.insert(2)], response: Fixture.abort(offender: 2))),
            violating: Fixture.steps(
                Fixture.push(1, atomic: false, mutations: [Fixture.insert(1), Fixture.insert(2)], response: Fixture.abort(offender: 2))),
            violatingStep: 1),
        RuleDescriptor(
            id: "AC-OFFENDER", title: "offender is a batch member",
            statement: "An aborted batch names as offender one of the batch's own mutations (UNKNOWN_BATCH_OFFENDER otherwise).",
            source: "D-atomic-batch-abort; upstream I-5 abort shape; engine-errors UNKNOWN_BATCH_OFFENDER", evaluation: .trace,
            passing: Fixture.steps(
                Fixture.push(1, atomic: true, mutations: [Fixture.insert(1), Fixture.insert(2)], response: Fixture.abort(offender: 1))),
            violating: Fixture.steps(
                Fixture.push(1, atomic: true, mutations: [Fixture.insert(1), Fixture.insert(2)], response: Fixture.abort(offender: 9))),
            violatingStep: 1),
        RuleDescriptor(
            id: "AC-REASON", title: "closed set of rejection reasons",
            statement:
                "A rejection reason is one of PRECONDITION, RLS_DENIED, COLUMN_DENIED, CONSTRAINT, DELETE_WINS, SUPERSEDED (UNKNOWN_VERDICT_REASON).",
            source: "D-rejection-reasons; engine-errors UNKNOWN_VERDICT_REASON", evaluation: .decoding,
            passing: Fixture.steps(
                Fixture.push(1, mutations: [Fixture.insert(1)], response: Fixture.verdicts(Fixture.rejected(1, reason: "RLS_DENIED")))),
            violating: Fixture.steps(
                Fixture.push(1, mutations: [Fixture.insert(1)], response: Fixture.verdicts(Fixture.rejected(1, reason: "NOT_ALLOWED")))),
            violatingStep: 1),
        RuleDescriptor(
            id: "AC-VERDICT-KIND", title: "closed set of verdict kinds",
            statement: "A verdict is applied or rejected; no other kind decodes (MALFORMED_PUSH_RESPONSE).",
            source: "common.schema.json#/$defs/verdict; engine-errors MALFORMED_PUSH_RESPONSE", evaluation: .decoding,
            passing: Fixture.steps(Fixture.push(1, mutations: [Fixture.insert(1)], response: Fixture.verdicts(Fixture.applied(1)))),
            violating: Fixture.steps(
                Fixture.push(
                    1, mutations: [Fixture.insert(1)],
                    response: #"{"verdicts":[{"mutation_id":"\#(Fixture.mutation(1))","verdict":"deferred"}]}"#)),
            violatingStep: 1),
    ]
}
