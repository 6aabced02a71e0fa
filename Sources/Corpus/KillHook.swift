import KizunaWire

/// A seam inside a driver at which a cooperating driver kills itself when the kill matrix asks
/// (docs/driver-protocol.md §3, docs/kill-matrix.md): instants the runner cannot pin from outside.
/// The one list of hook names, shared by the runner (which arms one), the driver protocol (which
/// reads the armed one from the environment) and the reference client's engine (which reaches them).
public enum KillHook: KebabNamed {
    /// A local write's row change is durable; the write is not answered yet.
    case afterLocalWrite
    /// A push answer was read and validated; none of it is applied yet.
    case afterPushAnswered
    /// A closing pull page was read; its rows are not committed yet.
    case beforeClosingCommit
    /// PowerSync: a checkpoint request is created; it is not sent yet.
    case afterRequestCreated
    /// PowerSync: a complete checkpoint is being applied; part of it is written, nothing committed.
    case midCheckpoint
    /// PowerSync: a checkpoint is applied and committed; the requests it covers are not marked synced yet.
    case afterCheckpointApplied

    /// The environment variable that arms a hook in a driver process: `ACCORD_KILL_AT=<hook>`.
    public static let environmentVariable = "ACCORD_KILL_AT"
}
