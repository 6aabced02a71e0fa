/// A check the runner makes around the rule folds: the server lane's comparison with the golden
/// answer and its bindings, `accord diff`'s comparison of two servers, and the expectations file.
/// Their ids appear in reports as failure types like any rule's, so they are in the catalog too.
public struct RunnerCheck: Sendable, Hashable {
    /// The stable id, e.g. `AC-GOLDEN`.
    public var id: String
    /// A short title.
    public var title: String
    /// One sentence: what holds when the check passes.
    public var statement: String
    /// Where it comes from.
    public var source: String
    /// Which command or lane makes it.
    public var checkedBy: String
    /// An input that passes it, as a command to run.
    public var passing: String
    /// An input that fails it, as a command to run.
    public var violating: String

    /// Every runner check, in id order.
    public static let all: [RunnerCheck] = [
        RunnerCheck(
            id: "AC-BINDING", title: "bindings stay a bijection",
            statement:
                "The map from golden server-made values (seqs, cursor parts, deleted_at) to live ones stays a bijection that keeps order per kind, with \"0\" fixed and, on a server that declares dense numbering, a constant distance from the seed's base.",
            source: "Accord decision: the server lane follows the conversation (docs/architecture.md)",
            checkedBy: "server lane (corpus steps and recorded exchanges), accord diff",
            passing: "accord run --server embedded ../shared/kizunasync-protocol",
            violating:
                "the same run with --scenarios giving lifecycle/005 a first seq of 1 and none of its history: the server's numbering falls behind the golden one (Tests/AccordEndToEndTests/LiveOutputTests.swift)"
        ),
        RunnerCheck(
            id: "AC-DIFF", title: "two servers answer alike",
            statement:
                "Replayed against two servers, every exchange of a recording gets the same HTTP status and the same answer once each server's own values are bound.",
            source: "Accord decision: accord diff (docs/replay.md)", checkedBy: "accord diff",
            passing: "accord diff --server embedded --server embedded Recordings/multi-user-sync.jsonl",
            violating:
                "accord diff against a server that numbers, orders or answers differently (Tests/AccordEndToEndTests/DiffEndToEndTests.swift)"
        ),
        RunnerCheck(
            id: "AC-GOLDEN", title: "the live answer is the golden one",
            statement:
                "In the server lane each live answer reaches the required tier against its golden answer (pass: equal canonical bytes; bound: equal once server-made values are bound), with the golden HTTP status and PostgREST code.",
            source: "DESIGN.md (server lane: tiers pass, bound, diverged); docs/replay.md for recordings",
            checkedBy: "server lane (corpus steps and recorded exchanges)",
            passing: "accord run --server embedded ../shared/kizunasync-protocol",
            violating: "accord selftest: each server mutant (e.g. a cursor one ahead of its rows) diverges from a golden answer"),
        RunnerCheck(
            id: "AC-KNOWN-FAILING", title: "expectations hold",
            statement:
                "Every entry of a known-failing list or expectations file names a case (or a recording's exchange) of the inputs, and each case ends as its entry says: a listed case that passes is a stale entry.",
            source: "Accord decision: pinned server states (docs/expectations.md)",
            checkedBy: "accord run --known-failing FILE, accord run --expect FILE",
            passing: "accord run --server postgres://… … --expect Expectations/kizunasync-pack.txt (docs/postgres.md)",
            violating: "accord run --server embedded ../shared/kizunasync-protocol --known-failing FILE, FILE listing a case that passes"),
    ]
}
