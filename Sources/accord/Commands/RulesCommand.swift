import Checks

enum RulesCommand: Command {
    static let spec = CommandSpec(
        name: "rules",
        abstract: "List the rule catalog: every rule's id, statement and source.",
        discussion: """
            Lists every id a report can carry: the rules (I-n, AC-…), the runner's checks (AC-GOLDEN,
            AC-BINDING, AC-DIFF, AC-KNOWN-FAILING) and the client and kill-matrix obligations (CL-…, KM-…).
            With an id, prints that one with its statement, source, what checks it and its fixtures.
            With --markdown, print docs/rules.md (CI checks that the checked-in copy is current).
            Exit status: 0, or 64 for an id that is not in the catalog.
            """,
        arguments: [CommandSpec.Argument(name: "id", help: "A rule id, e.g. I-5 or AC-GOLDEN (optional).", isOptional: true)],
        options: [OptionSpec(flag: .markdown, help: "Print the catalog as Markdown (docs/rules.md).")])

    static func run(_ arguments: ParsedArguments, console: Console) throws(UsageError) -> Int32 {
        if arguments.positionals.count > 1 {
            throw UsageError("unexpected argument '\(arguments.positionals[1])'", command: spec.name)
        }
        if let id = arguments.positionals.first {
            if arguments.has(.markdown) { throw UsageError("give an id or --markdown, not both", command: spec.name) }
            guard let entry = RuleCatalog.entry(id) else {
                throw UsageError("no rule '\(id)' in the catalog; 'accord rules' lists them", command: spec.name)
            }
            console.out(entry.text)
        } else if arguments.has(.markdown) {
            console.out(RuleCatalog.markdown, newline: false)
        } else {
            for entry in RuleCatalog.entries {
                console.out(HelpText.row(entry.id, entry.statement))
            }
        }
        return ExitCode.success
    }
}
