import Foundation

/// The optional driver-side kill hook of the kill matrix (docs/driver-protocol.md §3, docs/kill-matrix.md):
/// when the environment variable `ACCORD_KILL_AT` names a seam, the process SIGKILLs itself the first
/// time it reaches that seam, so the runner can kill it at an instant it cannot observe from outside.
public enum KillSeam: String, Sendable, CaseIterable {
    /// A local write's row change is durable; the write is not answered yet.
    case afterLocalWrite = "after-local-write"
    /// A push answer was read and validated; none of it is applied yet.
    case afterPushAnswered = "after-push-answered"
    /// A closing pull page was read; its rows are not committed yet.
    case beforeClosingCommit = "before-closing-commit"

    /// The environment variable a cooperating driver reads.
    public static let environmentVariable = "ACCORD_KILL_AT"

    /// The seam this process dies at, read once from the environment.
    static let armed: KillSeam? = ProcessInfo.processInfo.environment[environmentVariable].flatMap(KillSeam.init(rawValue:))

    /// Dies at once (SIGKILL to this process) when `seam` is the armed one; returns otherwise.
    /// - Parameter seam: the seam reached.
    static func reached(_ seam: KillSeam) {
        guard armed == seam else { return }
        kill(getpid(), SIGKILL)
    }
}
