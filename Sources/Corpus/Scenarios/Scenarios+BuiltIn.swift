import JSON

extension Scenarios {
    /// The history lifecycle/001 and rebase/004 both start from (the built-in text's one copy of
    /// it): e1 written at seq 1 and checkpointed, deleted at seq 2 and reaped, e2 written at seq 3.
    private static let rehydrationHistory = #"""
                {"columns": {"done": false, "owner_id": "00000000-0000-4000-8000-a10000000001", "title": "pre-transcript row"}, "op": "upsert", "pk": "00000000-0000-4000-8000-e10000000001", "table": "todos"},
                {"op": "delete", "pk": "00000000-0000-4000-8000-e10000000001", "table": "todos"},
                {"op": "reap"},
                {"columns": {"done": false, "owner_id": "00000000-0000-4000-8000-a10000000001", "title": "created while the client was offline"}, "op": "upsert", "pk": "00000000-0000-4000-8000-e10000000002", "table": "todos"}
        """#

    /// Accord's own setup for upstream's KizunaSync corpus (kizunasync/kizunasync,
    /// packages/protocol): the five cases whose golden starts from a state the transcript states
    /// only in its notes. Written here from each transcript's notes and golden answers; each case
    /// names the transcript version it was read from, where Accord has seen it. `accord run` uses
    /// it unless `--scenarios` gives a case again; `accord scenarios` prints it to start a file from.
    public static let builtInText = #"""
        {
          "_about": "Accord's setup for the upstream KizunaSync corpus (kizunasync/kizunasync, packages/protocol). Five cases start from a state their transcripts describe only in context.notes; this file writes that state down as data, one case each: the first seq the server stamps (next_seq), changes applied before step 1 by another actor (history: upsert, delete, reap, in order), and server steps whose transaction stays open until after a later step (held). A case carries transcript_sha256, the SHA-256 of the canonical transcript it was read from, where Accord has seen that transcript; on another version the setup does not apply and the case is reported not applicable. Every other case needs no setup: seqs from 1, no history, nothing held.",
          "cases": {
            "fencing/001-late-commit-delivered": {
              "about": "The client already holds checkpoint 4, so the first change stamps seq 5. Step 1's write stays in open transaction t1 until after step 5; step 2 commits at once, so the step-3 pull sees seq 6 with a hole at 5.",
              "held": [{"commit_after_step": 5, "step": 1, "txn": "t1"}],
              "next_seq": "5",
              "transcript_sha256": "62147ba97f066fc8f93172a607f51c2260f0c477a1115a43f367187d9b4005d2"
            },
            "fencing/003-two-holes-both-delivered": {
              "about": "As fencing/001 with two late writers: steps 1 and 2 (seqs 5 and 6) stay open in t1 and t2 until after step 6 while step 3 (seq 7) commits, so the step-4 pull sees 7 with holes at 5 and 6. Not in the corpus copy Accord is tested on, so no digest: applied by case id.",
              "held": [{"commit_after_step": 6, "step": 1, "txn": "t1"}, {"commit_after_step": 6, "step": 2, "txn": "t2"}],
              "next_seq": "5"
            },
            "lifecycle/001-checkpoint-expired-rehydrate": {
              "about": "Before the case: seq 1 wrote row e1 (the client checkpointed at 1), seq 2 deleted it and the reaper removed that tombstone, seq 3 wrote row e2. A pull from 1 now predates the oldest tombstone kept.",
              "history": [
        \#(rehydrationHistory)
              ],
              "transcript_sha256": "c3af1398a179c60cb21cf52d5c696ecd2d3a74847c556e5b2c11a708a6961413"
            },
            "lifecycle/005-bootstrap-after-reap-pages-to-completion": {
              "about": "Before the case: seqs 1 to 3 wrote rows e1, e2 and e3, seq 4 deleted e3 and the reaper removed that tombstone, so the reap horizon is 4 when the one-row-per-page bootstrap starts.",
              "history": [
                {"columns": {"done": false, "owner_id": "00000000-0000-4000-8000-a10000000001", "title": "row one"}, "op": "upsert", "pk": "00000000-0000-4000-8000-e10000000001", "table": "todos"},
                {"columns": {"done": false, "owner_id": "00000000-0000-4000-8000-a10000000001", "title": "row two"}, "op": "upsert", "pk": "00000000-0000-4000-8000-e10000000002", "table": "todos"},
                {"columns": {"done": false, "owner_id": "00000000-0000-4000-8000-a10000000001", "title": "row three"}, "op": "upsert", "pk": "00000000-0000-4000-8000-e10000000003", "table": "todos"},
                {"op": "delete", "pk": "00000000-0000-4000-8000-e10000000003", "table": "todos"},
                {"op": "reap"}
              ],
              "transcript_sha256": "7f75c400caf587c78c338c43634f2281c12acab99fc03156ef15d3a0d60fd986"
            },
            "rebase/004-rehydration-replays": {
              "about": "The same history as lifecycle/001: e1 written at seq 1 and checkpointed, deleted at seq 2 and reaped, e2 written at seq 3. Not in the corpus copy Accord is tested on, so no digest: applied by case id.",
              "history": [
        \#(rehydrationHistory)
              ]
            }
          }
        }
        """#

    /// `builtInText`, read; empty if it ever failed to read (a test pins that it reads).
    public static let builtIn: Scenarios = {
        do {
            return try Scenarios(json: try JSONParser.parse(Array(builtInText.utf8)), file: "Accord's built-in scenarios")
        } catch {
            return Scenarios()
        }
    }()
}
