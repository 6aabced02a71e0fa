/// `accord completions bash|zsh`: a completion script on standard output, drawn from the
/// command specs, so every subcommand and option completes.
enum CompletionsCommand: Command {
    static let spec = CommandSpec(
        name: "completions",
        abstract: "Print a bash or zsh completion script for accord.",
        discussion: """
            bash: 'accord completions bash > /usr/share/bash-completion/completions/accord', or source it.
            zsh: 'accord completions zsh > _accord' in a folder on $fpath.
            """,
        arguments: [CommandSpec.Argument(name: "shell", help: "bash or zsh.")], options: [])

    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        guard arguments.positionals.count == 1, let name = arguments.positionals.first else {
            throw UsageError("accord completions takes one <shell>: bash or zsh", command: spec.name)
        }
        guard let shell = Completions.Shell(rawValue: name) else {
            throw UsageError("<shell> takes bash or zsh, found '\(name)'", command: spec.name)
        }
        console.out(Completions.script(shell, commands: Accord.specs), newline: false)
        return ExitCode.success
    }
}
