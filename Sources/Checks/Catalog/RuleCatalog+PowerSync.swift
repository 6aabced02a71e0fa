import PowerSyncWire

extension RuleCatalog {
    /// The PowerSync profile's rule folds, in the order they run.
    public static let powerSyncTraceRules: [any Rule<PowerSync.Trace>.Type] = [
        CompletionRule.self, OpOrderRule.self, CoverageRule.self, CheckpointDiffRule.self,
        WriteCheckpointRule.self, CheckpointRequestRule.self,
    ]

    private typealias F = PowerSync.Fixture

    /// The PowerSync profile's rules (PS-…), ordered by id.
    public static let powerSyncRules: [RuleDescriptor] = [
        powerSyncRule(
            "PS-SHAPE", "sync line and endpoint shapes", .decoding,
            "Every sync-stream line is one object with exactly one key; a line of checkpoint, checkpoint_diff, data, partial_checkpoint_complete, checkpoint_complete or token_expires_in has its members of their types (op ids base-10 strings up to 2^63-1, checksums 32-bit numbers, ops PUT|REMOVE|MOVE|CLEAR); sync-stream, write-checkpoint and checkpoint-request bodies have their shapes. A line of another kind, and members no kind defines, are skipped, as the SDK core skips them.",
            source:
                "powersync-service docs/specs/sync-protocol.md; service-core util/protocol-types.ts; powersync-sqlite-core sync/line.rs, sync/checksum.rs",
            passing: [F.stream(1, F.threeRows() + [#"{"token_expires_in":60}"#, #"{"a_line_of_tomorrow":{"x":1}}"#])],
            violating: [F.stream(1, F.threeRows() + [#"{"token_expires_in":"soon"}"#])], line: 4),
        powerSyncRule(
            "PS-COMPLETE", "completion names the latest checkpoint", .trace,
            "A checkpoint_complete or partial_checkpoint_complete names the last_op_id of the latest checkpoint or checkpoint_diff line of its stream, and never comes before one.",
            source: "powersync-service docs/specs/sync-protocol.md (StreamingSyncCheckpointComplete)",
            passing: [F.stream(1, F.threeRows())], violating: [F.stream(1, F.threeRows(completed: 2))], line: 3),
        powerSyncRule(
            "PS-OP-ORDER", "op ids increase and data lines chain", .trace,
            "Within a stream, each bucket's op ids increase strictly; a data line's after is the request's position for the bucket (0 when it holds none) or the previous line's next_after, and next_after is not behind the line's ops.",
            source: "service-core util/protocol-types.ts (SyncBucketData after/next_after); sync/sync.ts (updateBucketPosition)",
            passing: [
                F.stream(
                    1, held: [("todos", 3)],
                    [
                        F.checkpoint(5, [F.bucket("todos", "9", count: 5)]),
                        F.data("todos", after: 3, next: 4, hasMore: true, [F.put(4, "1")]),
                        F.data("todos", after: 4, next: 5, [F.put(5, "2")]), F.complete(5),
                    ])
            ],
            violating: [F.stream(1, F.threeRows(ops: [F.put(1, "1"), F.put(3, "3"), F.put(2, "2")]))], line: 2),
        powerSyncRule(
            "PS-CHECKSUM", "bucket checksum at completion", .trace,
            "At a completion, each bucket it covers has ops whose checksums add up, as a wrapping u32, to its checkpoint checksum: PUT, REMOVE and MOVE add theirs, a CLEAR replaces the sum with its own; judged where the trace holds the bucket's whole history (a partial completion's mismatch is PS-PRIORITY when the bucket's data still follows).",
            source:
                "powersync-service docs/specs/sync-protocol.md (MOVE, CLEAR); powersync-sqlite-core sync/operations.rs, sync/checkpoint.rs, sync/checksum.rs",
            passing: [
                F.stream(
                    1,
                    [
                        F.checkpoint(5, [F.bucket("todos", "9", count: 3)]),
                        F.data(
                            "todos", after: 0, next: 5,
                            [F.put(1, "4294967295"), F.move(2, "-1.0"), F.clear(3, "7"), F.put(4, "-2", row: 1), F.remove(5, "4", row: 2)]),
                        F.complete(5),
                    ])
            ],
            violating: [F.stream(1, F.threeRows(checksum: "7"))], line: 3),
        powerSyncRule(
            "PS-PRIORITY", "a partial completion covers its priorities", .trace,
            "A partial_checkpoint_complete at priority N covers exactly the checkpoint's buckets at priority N or higher (a number at most N), so it comes only once their data is complete: no data for them follows in the same checkpoint; a checkpoint_complete covers every bucket. A last data line's has_more: true is no incompleteness by itself (the service ends a batch with it and may find nothing more).",
            source: "service-core sync/sync.ts (priority batches, forPriority); powersync-sqlite-core sync/checkpoint.rs (is_in_priority)",
            passing: [F.stream(1, prioritised(partialAt: 0))], violating: [F.stream(1, prioritised(partialAt: 2))], line: 3),
        powerSyncRule(
            "PS-DIFF", "a diff applies to the checkpoint it follows", .trace,
            "A checkpoint_diff follows a checkpoint of its stream, removes only buckets that checkpoint has, does not both update and remove a bucket, and its last_op_id is not behind the checkpoint's.",
            source: "powersync-service docs/specs/sync-protocol.md (StreamingSyncCheckpointDiff)",
            passing: [F.stream(1, diffed(removing: "lists"))], violating: [F.stream(1, diffed(removing: "projects"))], line: 4),
        powerSyncRule(
            "PS-WRITE-CHECKPOINT", "write checkpoints never go back", .trace,
            "Over a trace, the write_checkpoint a checkpoint or checkpoint_diff acknowledges to a client id never goes below one acknowledged to it before; a line without one is no regression (the latest id may wait for replication).",
            source:
                "service-core sync/sync.ts (checkpointUserId), sync/BucketChecksumState.ts (write_checkpoint); docs/specs/sync-protocol.md",
            passing: [F.writeCheckpoint(1, answered: 6), F.stream(2, acknowledging(5, then: 6))],
            violating: [F.writeCheckpoint(1, answered: 6), F.stream(2, acknowledging(5, then: 4))], step: 2, line: 4),
        powerSyncRule(
            "PS-REQUEST-ID", "one counter per user and client: checkpoint-request ids keep the greatest", .trace,
            "Checkpoint requests and write checkpoints of a client share one id. A checkpoint-request answer is never below the submitted id and, once the held id is known, is exactly the greater of submitted and held: a stale or repeated id never moves it back (ids up to 2^63-1 exact). A write-checkpoint answer is not below the id held. An answer of 1 starts a new counter (another user on the device, or a compacted row).",
            source:
                "seed powersync-checkpoint-requests.txt (Checkpoint Request IDs); service-core routes/endpoints/checkpointing.ts, util/checkpointing.ts (checkpointUserId); module-postgres-storage PostgresWriteCheckpointAPI.ts",
            passing: [
                F.checkpointRequest(1, submitted: "1", answered: "42"), F.checkpointRequest(2, submitted: "43", answered: "43"),
                F.checkpointRequest(3, submitted: "2", answered: "43"), F.writeCheckpoint(4, answered: 44),
            ],
            violating: [
                F.checkpointRequest(1, submitted: "1", answered: "42"), F.checkpointRequest(2, submitted: "43", answered: "43"),
                F.checkpointRequest(3, submitted: "2", answered: "43"), F.writeCheckpoint(4, answered: 2),
            ], step: 4),
    ]

    /// Buckets `urgent` (priority 0) and `todos` (priority 2): urgent's data, a partial
    /// completion at `partialAt`, todos's data in two batches (the first saying more follows),
    /// the completion. At 2 the partial completion claims todos before its data.
    private static func prioritised(partialAt priority: Int) -> [String] {
        [
            F.checkpoint(4, [F.bucket("urgent", "1", count: 1, priority: 0), F.bucket("todos", "5", count: 2, priority: 2)]),
            F.data("urgent", after: 0, next: 1, [F.put(1, "1")]), F.partial(4, priority: priority),
            F.data("todos", after: 0, next: 2, hasMore: true, [F.put(2, "2")]), F.data("todos", after: 2, next: 4, [F.put(4, "3")]),
            F.complete(4),
        ]
    }

    /// A checkpoint of todos and an empty lists, then a diff that removes `name` and grows todos.
    private static func diffed(removing name: String) -> [String] {
        [
            F.checkpoint(3, [F.bucket("todos", "6", count: 3), F.bucket("lists", "0", count: 0)]),
            F.data("todos", after: 0, next: 3, [F.put(1, "1"), F.put(2, "2"), F.put(3, "3")]), F.complete(3),
            F.diff(5, updated: [F.bucket("todos", "10", count: 4)], removed: [name]), F.data("todos", after: 3, next: 5, [F.put(5, "4")]),
            F.complete(5),
        ]
    }

    /// The three rows acknowledging write checkpoint `first`, then a diff acknowledging `then`.
    private static func acknowledging(_ first: Int, then next: Int) -> [String] {
        [
            F.checkpoint(3, writeCheckpoint: first, [F.bucket("todos", "6", count: 3)]),
            F.data("todos", after: 0, next: 3, [F.put(1, "1"), F.put(2, "2"), F.put(3, "3")]), F.complete(3),
            F.diff(5, writeCheckpoint: next, updated: [F.bucket("todos", "10", count: 4)]),
            F.data("todos", after: 3, next: 5, [F.put(5, "4")]),
            F.complete(5),
        ]
    }

    private static func powerSyncRule(
        _ id: RuleID, _ title: String, _ evaluation: RuleEvaluation, _ statement: String, source: String, passing: [String],
        violating: [String], step: Int = 1, line: Int? = nil
    ) -> RuleDescriptor {
        RuleDescriptor(
            id: id, title: title, statement: statement, source: source, evaluation: evaluation, passing: F.steps(passing),
            violating: F.steps(violating), violatingStep: step, profile: .powerSync, violatingLine: line)
    }
}
