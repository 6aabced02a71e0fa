extension RuleCatalog {
    static let pullRules: [RuleDescriptor] = [
        RuleDescriptor(
            id: "I-3", title: "cursor monotonicity",
            statement:
                "A pull response's cursor high-water is never below the request's or the previous response's, except across CHECKPOINT_EXPIRED, and an asserted client cursor changes only across a has_more:false boundary.",
            source: "upstream invariant I-3; P:cursor-monotonicity-rebase-and-atomic-checkpoints", evaluation: .trace,
            passing: Fixture.steps(
                Fixture.pull(1, from: "0", to: "2", rows: [(2, 1)]), Fixture.assertCursor(2, "2"), Fixture.pull(3, from: "2", to: "2")),
            violating: Fixture.steps(
                Fixture.pull(1, from: "0", to: "2", rows: [(2, 1)]), Fixture.assertCursor(2, "2"), Fixture.pull(3, from: "2", to: "1")),
            violatingStep: 3),
        RuleDescriptor(
            id: "I-4", title: "delivery bound",
            statement:
                "No delivered seq is above the response high-water, nor at or below the request high-water unless it fills a hole of the request token (visibility-horizon fencing).",
            source: "upstream invariant I-4; P:keyset-pagination-and-delivery-bound; D-visibility-horizon", evaluation: .trace,
            passing: Fixture.steps(Fixture.pull(1, from: "0", to: "2", rows: [(1, 1), (2, 2)])),
            violating: Fixture.steps(Fixture.pull(1, from: "0", to: "1", rows: [(1, 1), (2, 2)])), violatingStep: 1),
        RuleDescriptor(
            id: "I-8", title: "signal excludes page data",
            statement: "A pull page with a signal has no rows, no tombstones and has_more:false.",
            source: "upstream invariant I-8; D-signal-excludes-page-data", evaluation: .trace,
            passing: Fixture.steps(Fixture.pull(1, from: "3", to: "3", signal: "CHECKPOINT_EXPIRED")),
            violating: Fixture.steps(Fixture.pull(1, from: "3", to: "3", rows: [(4, 1)], signal: "CHECKPOINT_EXPIRED")), violatingStep: 1),
        RuleDescriptor(
            id: "AC-EXPIRY", title: "a bootstrap never expires",
            statement:
                "CHECKPOINT_EXPIRED never answers a transfer that started from \"0\" (a bootstrap, or a continuation whose start is 0).",
            source: "PROTOCOL-NOTES §3; P:cursor-monotonicity-rebase-and-atomic-checkpoints", evaluation: .trace,
            passing: Fixture.steps(Fixture.pull(1, from: "3", to: "3", signal: "CHECKPOINT_EXPIRED")),
            violating: Fixture.steps(Fixture.pull(1, from: "0", to: "0", signal: "CHECKPOINT_EXPIRED")), violatingStep: 1),
        RuleDescriptor(
            id: "I-9a", title: "page limit",
            statement: "Rows and tombstones together never exceed the request's limit (default 500).",
            source: "upstream invariant I-9 clause a; D-page-cap-and-checkpoint-boundary", evaluation: .trace,
            passing: Fixture.steps(Fixture.pull(1, from: "0", limit: 2, to: "2", rows: [(1, 1), (2, 2)])),
            violating: Fixture.steps(Fixture.pull(1, from: "0", limit: 1, to: "2", rows: [(1, 1), (2, 2)])), violatingStep: 1),
        RuleDescriptor(
            id: "I-9b", title: "continuation keeps the transfer open",
            statement: "A page whose cursor carries a `<start>:` prefix keeps has_more:true; the closing page returns a checkpoint token.",
            source: "upstream invariant I-9 clause b; D-page-cap-and-checkpoint-boundary", evaluation: .trace,
            passing: Fixture.steps(Fixture.pull(1, from: "0", limit: 1, to: "0:1", hasMore: true, rows: [(1, 1)])),
            violating: Fixture.steps(Fixture.pull(1, from: "0", limit: 1, to: "0:1", hasMore: false, rows: [(1, 1)])), violatingStep: 1),
        RuleDescriptor(
            id: "I-9c", title: "an under-full page closes the checkpoint",
            statement: "A page holding fewer entries than the limit, with a hole-free cursor and no declared scan cap, has has_more:false.",
            source: "upstream invariant I-9 clause c; D-page-cap-and-checkpoint-boundary", evaluation: .trace,
            passing: Fixture.steps(Fixture.pull(1, from: "0", limit: 2, to: "1", hasMore: false, rows: [(1, 1)])),
            violating: Fixture.steps(Fixture.pull(1, from: "0", limit: 2, to: "0:1", hasMore: true, rows: [(1, 1)])), violatingStep: 1),
        RuleDescriptor(
            id: "I-9d", title: "continuation cursor",
            statement: "A continuation cursor is `<start>:<seq of the page's last entry>`, where start is the transfer's start checkpoint.",
            source: "upstream invariant I-9 clause d; D-cursor-opaque-token", evaluation: .trace,
            passing: Fixture.steps(Fixture.pull(1, from: "0", limit: 1, to: "0:1", hasMore: true, rows: [(1, 1)])),
            violating: Fixture.steps(Fixture.pull(1, from: "0", limit: 1, to: "0:2", hasMore: true, rows: [(1, 1)])), violatingStep: 1),
        RuleDescriptor(
            id: "I-9e", title: "signal page echoes the cursor",
            statement: "A signal page is exempt from page accounting because it echoes the request cursor verbatim.",
            source: "upstream invariant I-9 clause e; D-signal-excludes-page-data", evaluation: .trace,
            passing: Fixture.steps(Fixture.pull(1, from: "3", to: "3", signal: "RESET_REQUIRED")),
            violating: Fixture.steps(Fixture.pull(1, from: "3", to: "4", signal: "RESET_REQUIRED")), violatingStep: 1),
        RuleDescriptor(
            id: "I-9f", title: "an open transfer names its start",
            statement:
                "A has_more:true page with a hole-free cursor carries a `<start>:` prefix naming the checkpoint the transfer began at.",
            source: "upstream invariant I-9 clause f; D-page-cap-and-checkpoint-boundary", evaluation: .trace,
            passing: Fixture.steps(Fixture.pull(1, from: "0", limit: 1, to: "0:1", hasMore: true, rows: [(1, 1)])),
            violating: Fixture.steps(Fixture.pull(1, from: "0", limit: 1, to: "1", hasMore: true, rows: [(1, 1)])), violatingStep: 1),
        RuleDescriptor(
            id: "I-10", title: "stream order",
            statement:
                "Rows and tombstones each keep strict (seq, table, pk) order, table and pk compared byte-wise, and no stream entry appears twice on a page.",
            source: "upstream invariant I-10; P:keyset-pagination-and-delivery-bound", evaluation: .trace,
            passing: Fixture.steps(Fixture.pull(1, from: "0", to: "2", rows: [(1, 1), (2, 2)])),
            violating: Fixture.steps(Fixture.pull(1, from: "0", to: "2", rows: [(2, 2), (1, 1)])), violatingStep: 1),
    ]
}
