import AccordVersion
import Lanes

/// `accord man`: accord(1) in roff on standard output, drawn from the command specs.
enum ManCommand: Command {
    static let spec = CommandSpec(
        name: "man",
        abstract: "Print the accord(1) manual page in roff.",
        discussion: """
            The page has NAME, SYNOPSIS, DESCRIPTION, a section per subcommand with every option, and EXIT
            STATUS, drawn from the same specs as the help. Install it with 'accord man > accord.1'.
            """,
        arguments: [], options: [])

    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        console.out(ManPage.render(Accord.specs, version: AccordVersion.number), newline: false)
        return ExitCode.success
    }
}
