import Harness
import Lanes

enum CheckCommand: Command {
    static let spec = CommandSpec(
        name: "check",
        abstract: "Check transcripts, corpus folders and recordings offline against the rule catalog.",
        discussion: """
            Each PATH is a corpus folder in the upstream layout (cases/manifest.json + transcripts/**),
            one transcript file, or a recording (JSON Lines). Every exchange is decoded strictly and run
            through the rules; client-state checks that need a live client are reported as skipped.
            Exit status: 0 when nothing failed, 1 when a rule failed, 64 for a usage or input error.
            """,
        arguments: [
            CommandSpec.Argument(
                name: "path", help: "A corpus folder, transcript (.json) or recording (.jsonl); one or more.", isRepeatable: true)
        ],
        options: SharedOptions.reports + [
            OptionSpec(
                .filter, value: "glob", help: "Check only cases (by id) and recordings (by file name) matching <glob>, e.g. 'push/*'."),
            SharedOptions.color, SharedOptions.maxLine,
        ])

    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        if arguments.positionals.isEmpty {
            throw RunError.usage("missing <path>: give a corpus folder, transcript or recording\nSee 'accord help check'.")
        }
        var options = CheckRun.Options(
            paths: arguments.positionals, junitPath: arguments.value(.junit), jsonPath: arguments.value(.json),
            filter: arguments.value(.filter), color: arguments.has(.color))
        options.run.inputs.maxLine = try SharedOptions.maxLine(arguments)
        options.run.reports.html = arguments.value(.html)
        let passed = try await CheckRun.run(options) { console.out($0) }
        return passed ? ExitCode.success : ExitCode.failure
    }
}
