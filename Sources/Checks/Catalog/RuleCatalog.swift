import KizunaWire

/// Every rule Accord checks offline, with its statement, source and fixtures. docs/rules.md is
/// generated from this list (`accord rules --markdown`).
public enum RuleCatalog {
    /// The trace rules, in the order they run.
    public static let traceRules: [any Rule<KizunaSync.Trace>.Type] = [
        CursorMonotonicityRule.self, DeliveryBoundRule.self, PushAnswerRule.self, SignalPageRule.self, PageAccountingRule.self,
        StreamOrderRule.self,
    ]

    /// The rule with an id, if it is in the catalog.
    /// - Returns: its descriptor.
    public static func rule(_ id: RuleID) -> RuleDescriptor? { rules.first { $0.id == id } }

    /// All rules, ordered by id.
    public static let rules: [RuleDescriptor] = (formatRules + pushRules + pullRules).sorted { $0.id < $1.id }

    static let formatRules: [RuleDescriptor] = [
        RuleDescriptor(
            id: "I-1", title: "canonical bytes",
            statement:
                "A corpus file is byte-canonical JSON: UTF-8, LF, 2-space indent, keys sorted byte-wise, integers only, one trailing newline, no duplicate keys.",
            source: "upstream invariant I-1 (harness canonical.ts, rules C-1..C-7, C-9)", evaluation: .bytes,
            passing: "{\n  \"a\": 1,\n  \"b\": [\n    \"x\"\n  ]\n}\n", violating: "{\"b\": [\"x\"], \"a\": 1}\n", violatingStep: nil),
        transcriptRule(
            "I-2", "message shape", .decoding,
            "Every request and response matches its pull/push schema: required keys present, no unknown keys, right JSON types, canonical cursor and seq text.",
            source: "upstream invariant I-2 (schemas/pull-*.schema.json, push-*.schema.json)",
            passing: [Fixture.pull(1, from: "0", to: "1", rows: [(1, 1)])],
            violating: [Fixture.pull(1, from: "0", to: "01", rows: [(1, 1)])]),
        transcriptRule(
            "AC-OP", "closed set of ops", .decoding, "A mutation's op is one of insert, update, delete (UNKNOWN_OP).",
            source: "common.schema.json#/$defs/mutation/op; spec/engine-errors.json UNKNOWN_OP",
            passing: [oneInsert(answered: Fixture.verdicts(Fixture.applied(1)))],
            violating: [Fixture.push(1, mutations: [Fixture.insert(1, op: "upsert")], response: Fixture.verdicts(Fixture.applied(1)))]),
        transcriptRule(
            "AC-SIGNAL", "closed set of signals", .decoding,
            "A signal is CHECKPOINT_EXPIRED or RESET_REQUIRED, and a push signal is RESET_REQUIRED (UNKNOWN_SIGNAL).",
            source: "common.schema.json#/$defs/signal; D-schema-version-handshake; engine-errors UNKNOWN_SIGNAL",
            passing: [Fixture.signalPage("RESET_REQUIRED")], violating: [Fixture.signalPage("SLOW_DOWN")]),
    ]

    /// A rule whose fixtures are transcript steps (every rule but the file-level I-1); the
    /// violating steps fail at step `failingAt`.
    static func transcriptRule(
        _ id: RuleID, _ title: String, _ evaluation: RuleEvaluation, _ statement: String, source: String, passing: [String],
        violating: [String], failingAt: Int = 1
    ) -> RuleDescriptor {
        RuleDescriptor(
            id: id, title: title, statement: statement, source: source, evaluation: evaluation, passing: Fixture.steps(passing),
            violating: Fixture.steps(violating), violatingStep: failingAt)
    }
}
