import Checks

enum RulesCommand {
    static let spec = CommandSpec(
        name: "rules",
        abstract: "List the rule catalog: every rule's id, statement and source.",
        discussion: "With --markdown, print docs/rules.md (CI checks that the checked-in copy is current).",
        arguments: [],
        options: [OptionSpec(long: "markdown", valueName: nil, help: "Print the catalog as Markdown (docs/rules.md).")],
        usage: "[--markdown]")

    static func run(_ arguments: ParsedArguments, console: Console) -> Int32 {
        if arguments.flags.contains("markdown") {
            console.out(RuleCatalog.markdown, newline: false)
        } else {
            for rule in RuleCatalog.rules {
                console.out(HelpText.row(rule.id.rawValue, rule.statement))
            }
        }
        return ExitCode.success
    }
}
