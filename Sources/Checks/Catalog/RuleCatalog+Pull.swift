extension RuleCatalog {
    static let pullRules: [RuleDescriptor] = [
        transcriptRule(
            "I-3", "cursor monotonicity", .trace,
            "A pull response's cursor high-water is never below the request's or the previous response's, except across CHECKPOINT_EXPIRED, and an asserted client cursor changes only across a has_more:false boundary.",
            source: "upstream invariant I-3; P:cursor-monotonicity-rebase-and-atomic-checkpoints",
            passing: [
                Fixture.pull(1, from: "0", to: "2", rows: [(2, 1)]), Fixture.assertCursor(2, "2"), Fixture.pull(3, from: "2", to: "2"),
            ],
            violating: [
                Fixture.pull(1, from: "0", to: "2", rows: [(2, 1)]), Fixture.assertCursor(2, "2"), Fixture.pull(3, from: "2", to: "1"),
            ],
            failingAt: 3),
        transcriptRule(
            "I-4", "delivery bound", .trace,
            "No delivered seq is above the response high-water, nor at or below the request high-water unless it fills a hole of the request token (visibility-horizon fencing).",
            source: "upstream invariant I-4; P:keyset-pagination-and-delivery-bound; D-visibility-horizon",
            passing: [Fixture.pull(1, from: "0", to: "2", rows: [(1, 1), (2, 2)])],
            violating: [Fixture.pull(1, from: "0", to: "1", rows: [(1, 1), (2, 2)])]),
        transcriptRule(
            "I-8", "signal excludes page data", .trace, "A pull page with a signal has no rows, no tombstones and has_more:false.",
            source: "upstream invariant I-8; D-signal-excludes-page-data",
            passing: [Fixture.signalPage("CHECKPOINT_EXPIRED")],
            violating: [Fixture.pull(1, from: "3", to: "3", rows: [(4, 1)], signal: "CHECKPOINT_EXPIRED")]),
        transcriptRule(
            "AC-EXPIRY", "a bootstrap never expires", .trace,
            "CHECKPOINT_EXPIRED never answers a transfer that started from \"0\" (a bootstrap, or a continuation whose start is 0).",
            source: "PROTOCOL-NOTES §3; P:cursor-monotonicity-rebase-and-atomic-checkpoints",
            passing: [Fixture.signalPage("CHECKPOINT_EXPIRED")], violating: [Fixture.signalPage("CHECKPOINT_EXPIRED", from: "0")]),
        transcriptRule(
            "I-9a", "page limit", .trace, "Rows and tombstones together never exceed the request's limit (default 500).",
            source: "upstream invariant I-9 clause a; D-page-cap-and-checkpoint-boundary",
            passing: [Fixture.pull(1, from: "0", limit: 2, to: "2", rows: [(1, 1), (2, 2)])],
            violating: [Fixture.pull(1, from: "0", limit: 1, to: "2", rows: [(1, 1), (2, 2)])]),
        transcriptRule(
            "I-9b", "continuation keeps the transfer open", .trace,
            "A page whose cursor carries a `<start>:` prefix keeps has_more:true; the closing page returns a checkpoint token.",
            source: "upstream invariant I-9 clause b; D-page-cap-and-checkpoint-boundary",
            passing: [onePage(to: "0:1", hasMore: true)], violating: [onePage(to: "0:1", hasMore: false)]),
        transcriptRule(
            "I-9c", "an under-full page closes the checkpoint", .trace,
            "A page holding fewer entries than the limit, with a hole-free cursor and no declared scan cap, has has_more:false.",
            source: "upstream invariant I-9 clause c; D-page-cap-and-checkpoint-boundary",
            passing: [onePage(limit: 2, to: "1", hasMore: false)], violating: [onePage(limit: 2, to: "0:1", hasMore: true)]),
        transcriptRule(
            "I-9d", "continuation cursor", .trace,
            "A continuation cursor is `<start>:<seq of the page's last entry>`, where start is the transfer's start checkpoint.",
            source: "upstream invariant I-9 clause d; D-cursor-opaque-token",
            passing: [onePage(to: "0:1", hasMore: true)], violating: [onePage(to: "0:2", hasMore: true)]),
        transcriptRule(
            "I-9e", "signal page echoes the cursor", .trace,
            "A signal page is exempt from page accounting because it echoes the request cursor verbatim.",
            source: "upstream invariant I-9 clause e; D-signal-excludes-page-data",
            passing: [Fixture.signalPage("RESET_REQUIRED")], violating: [Fixture.signalPage("RESET_REQUIRED", to: "4")]),
        transcriptRule(
            "I-9f", "an open transfer names its start", .trace,
            "A has_more:true page with a hole-free cursor carries a `<start>:` prefix naming the checkpoint the transfer began at.",
            source: "upstream invariant I-9 clause f; D-page-cap-and-checkpoint-boundary",
            passing: [onePage(to: "0:1", hasMore: true)], violating: [onePage(to: "1", hasMore: true)]),
        transcriptRule(
            "I-10", "stream order", .trace,
            "Rows and tombstones each keep strict (seq, table, pk) order, table and pk compared byte-wise, and no stream entry appears twice on a page.",
            source: "upstream invariant I-10; P:keyset-pagination-and-delivery-bound",
            passing: [Fixture.pull(1, from: "0", to: "2", rows: [(1, 1), (2, 2)])],
            violating: [Fixture.pull(1, from: "0", to: "2", rows: [(2, 2), (1, 1)])]),
    ]

    /// The page accounting fixtures' step: a pull from "0" delivering row 1 at seq 1, under
    /// `limit` (1 unless said), answered with `cursor` and `hasMore`.
    private static func onePage(limit: Int = 1, to cursor: String, hasMore: Bool) -> String {
        Fixture.pull(1, from: "0", limit: limit, to: cursor, hasMore: hasMore, rows: [(1, 1)])
    }
}
