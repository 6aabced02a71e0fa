import Corpus
import Harness
import Lanes
import Reports

enum ScenariosCommand: Command {
    static let spec = CommandSpec(
        name: "scenarios",
        abstract: "Print Accord's built-in scenario setup, or which cases of a corpus need setup and what they get.",
        discussion: """
            Some upstream cases start from a state their transcripts state only in prose (a first seq,
            history before step 1, a transaction held open). Accord ships that setup for upstream's
            KizunaSync corpus and uses it unless --scenarios gives a case again. With no argument,
            prints the built-in setup (a scenarios file to start your own from). With a corpus folder,
            prints one line per case whose golden needs setup: the setup it gets, or what is missing
            (such a case is reported not applicable, never failed).
            Exit status: 0, or 64 for an unreadable corpus or scenarios file.
            """,
        arguments: [
            CommandSpec.Argument(name: "corpus", help: "A corpus folder (cases/manifest.json) to look at (optional).", isOptional: true)
        ],
        options: [
            OptionSpec(
                .scenarios, value: "file", help: "Setup read over the built-in one, as accord run reads it; repeatable.", repeatable: true)
        ])

    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        if arguments.positionals.count > 1 {
            throw UsageError("unexpected argument '\(arguments.positionals[1])'", command: spec.name)
        }
        let scenarios = try ScenarioFiles.load(arguments.values(.scenarios))
        guard let folder = arguments.positionals.first else {
            if arguments.has(.scenarios) { throw UsageError("--scenarios applies with a corpus folder", command: spec.name) }
            console.out(Scenarios.builtInText)
            return ExitCode.success
        }
        let corpus: Corpus
        do throws(CorpusError) { corpus = try Corpus(files: FolderFiles(root: folder)) } catch { throw RunError.input(error) }
        for item in corpus.cases {
            guard case .transcript(let loaded, _) = item else { continue }
            let needs = ScenarioNeeds(loaded.transcript)
            guard needs.numbering != nil || needs.heldTransaction != nil else { continue }
            switch scenarios.setup(for: loaded) {
            case .ready(let scenario):
                let digest = scenarios.writtenFor[item.id] == nil ? "by case id" : "transcript matched by sha256"
                console.out("\(item.id): setup given (\(describe(scenario)); \(digest))")
            case .missing(let reason):
                console.out("\(item.id): not applicable: \(reason)")
            }
        }
        return ExitCode.success
    }

    private static func describe(_ scenario: Scenarios.Scenario) -> String {
        var parts: [String] = []
        if let seq = scenario.nextSeq { parts.append("first seq \(seq)") }
        if !scenario.history.isEmpty { parts.append(Quantity.of(scenario.history.count, "history change")) }
        if !scenario.held.isEmpty { parts.append(Quantity.of(scenario.held.count, "held transaction")) }
        return parts.joined(separator: ", ")
    }
}
