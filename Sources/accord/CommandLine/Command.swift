/// A subcommand: its spec and what it does with the arguments parsed against it. `Accord.commands`
/// lists them; adding a command is one type and one line there.
protocol Command {
    /// Its name, help, arguments and options.
    static var spec: CommandSpec { get }

    /// Runs it.
    /// - Parameters:
    ///   - arguments: the command line, parsed against `spec`.
    ///   - console: standard output and error.
    /// - Returns: the exit status.
    /// - Throws: `UsageError` or `RunError`, which `Accord.main` maps to an exit status.
    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32
}
