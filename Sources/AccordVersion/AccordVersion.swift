/// What this build of Accord is: the version set in the repo's VERSION file and the git commit it
/// was built from, both stamped in at build time by the BuildStamp plugin (scripts/build-stamp).
public enum AccordVersion {
    /// The release version, from VERSION (e.g. `0.1.0`); reports carry it as `accord_version`.
    public static let number = BuildStamp.version

    /// The commit the binary was built from: 12 hex digits, `-dirty` when the work tree had
    /// uncommitted changes, `unknown` when it was built outside a git checkout.
    public static let commit = BuildStamp.commit

    /// The line `accord --version` prints: `accord 0.1.0 (commit 0123456789ab)`.
    public static var line: String { "accord \(number) (commit \(commit))" }
}
