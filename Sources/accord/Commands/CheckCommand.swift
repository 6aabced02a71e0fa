import Runner

enum CheckCommand {
    static let spec = CommandSpec(
        name: "check",
        abstract: "Check transcripts, corpus folders and recordings offline against the rule catalog.",
        discussion: """
            Each PATH is a corpus folder in the upstream layout (cases/manifest.json + transcripts/**),
            one transcript file, or a recording (JSON Lines). Every exchange is decoded strictly and run
            through the rules; client-state checks that need a live client are reported as skipped.
            Exit status: 0 when nothing failed, 1 when a rule failed, 64 for a usage or input error.
            """,
        arguments: [("path", "A corpus folder, transcript (.json) or recording (.jsonl); one or more.")],
        options: [
            OptionSpec(long: "junit", valueName: "file", help: "Write a JUnit XML report to <file>."),
            OptionSpec(long: "json", valueName: "file", help: "Write a JSON report to <file>."),
            OptionSpec(
                long: "html", valueName: "file",
                help: "Write a self-contained HTML page to <file>: a summary, a sequence picture per case, each failure's rule and diff."),
            OptionSpec(
                long: "filter", valueName: "glob",
                help: "Check only cases (by id) and recordings (by file name) matching <glob>, e.g. 'push/*'."),
            OptionSpec(long: "color", valueName: nil, help: "Colour the console summary."),
            MaxLineOption.spec,
        ],
        usage: "<path> ... [--junit <file>] [--json <file>] [--html <file>] [--filter <glob>] [--color] [--max-line <bytes>]")

    static func run(_ arguments: ParsedArguments, console: Console) throws(RunError) -> Int32 {
        if arguments.positionals.isEmpty {
            throw RunError.usage("missing <path>: give a corpus folder, transcript or recording\nSee 'accord help check'.")
        }
        var options = CheckRun.Options(
            paths: arguments.positionals, junitPath: arguments.values["junit"], jsonPath: arguments.values["json"],
            filter: arguments.values["filter"], color: arguments.flags.contains("color"))
        options.maxLine = try MaxLineOption.value(arguments)
        options.htmlPath = arguments.values["html"]
        let passed = try CheckRun.run(options) { console.out($0) }
        return passed ? ExitCode.success : ExitCode.failure
    }
}
