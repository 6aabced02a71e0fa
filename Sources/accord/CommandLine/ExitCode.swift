/// Process exit statuses, as README.md and accord(1) document them.
enum ExitCode {
    /// Nothing failed.
    static let success: Int32 = 0
    /// A rule failed (or a case, a mutant, a difference).
    static let failure: Int32 = 1
    /// A usage or input error (EX_USAGE).
    static let usage: Int32 = 64
    /// Something the command needs failed while it ran: an address it cannot listen on, a
    /// database it cannot reach, a server that did not start (EX_UNAVAILABLE).
    static let unavailable: Int32 = 69
    /// A fault in accord itself: an error no command documents (EX_SOFTWARE).
    static let software: Int32 = 70
    /// A target that is not set up to be tested, or a run in which no check ran (EX_CONFIG).
    static let setup: Int32 = 78

    /// Every status with its meaning, for the man page.
    static let documented: [(Int32, String)] = [
        (success, "Nothing failed."),
        (failure, "A rule failed: a case, a mutant or a difference (accord diff) that the run reports."),
        (usage, "A usage or input error: an unknown option, a bad value, a file that cannot be read or parsed."),
        (unavailable, "Something the command needs failed while it ran: an address it cannot listen on, a database it cannot reach."),
        (software, "A fault in accord itself."),
        (
            setup,
            "accord run: a setup problem found before the first case (server not reachable, fixture endpoint off, JWT refused, driver not found or not speaking the driver protocol, libfiu missing for --storage-faults), or a run in which no check ran."
        ),
    ]
}
