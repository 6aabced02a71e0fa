import Corpus
import Foundation
import Harness
import KizunaWire
import Lanes
import PowerSyncWire
import ReferenceClient
import ReferencePowerSync
import ReferencePowerSyncClient
import ReferenceServer
import ServerContract

/// `accord selftest`: the mutation score of Accord's own rules over seeded faults in the
/// reference server and client.
enum SelftestCommand: Command {
    static let spec = CommandSpec(
        name: "selftest",
        abstract: "Score Accord's rules against seeded faults in the reference server and client.",
        discussion: """
            Plays the unmutated reference server (server lane) and reference client (client lane and
            kill matrix) over the corpus, Conformance/ and Recordings/ - they must pass - then each seeded
            fault, one at a time: server faults in process through the server lane, client faults through
            'accord driver --fault NAME' in the client lane and, if they survive it, the kill matrix (plus
            a built-in client-only probe whose golden response breaks the verdict bijection). Prints a
            Markdown table of killed and surviving mutants with the rule and step that killed each; the
            last line is 'mutation score: K/N killed'. A survivor is a gap in Accord's rules.
            Exit status: 0 when the baselines pass and every mutant is killed, 1 otherwise, 64 for a
            usage or input error.
            """,
        arguments: [
            CommandSpec.Argument(
                name: "path", help: "Inputs played besides the corpus (default: Conformance Recordings).", isRepeatable: true,
                isOptional: true)
        ],
        options: [
            OptionSpec(.corpus, value: "folder", help: "The shared corpus (default: ../shared/kizunasync-protocol)."),
            OptionSpec(
                .scenarios, value: "file", help: "Server-lane setup over Accord's built-in setup for upstream's corpus; repeatable.",
                repeatable: true),
            OptionSpec(.filter, value: "glob", help: "Play only the mutants whose name matches <glob>."),
            SharedOptions.jobs,
            OptionSpec(.junit, value: "file", help: "Write a JUnit XML report, one suite per mutant, to <file>."),
        ])

    /// Every mutant of the catalogue: the server's faults, then the client's.
    static var catalogue: [Mutant] {
        ServerFault.allCases.map { Mutant.server($0.rawValue, breaks: $0.rule) }
            + ClientFault.allCases.map { Mutant.client($0.rawValue, breaks: $0.summary) }
            + PowerSync.ServiceFault.allCases.map { Mutant.powerSyncService($0.rawValue, breaks: $0.rule) }
            + PowerSync.ClientFault.allCases.map { Mutant.powerSyncClient($0.rawValue, breaks: $0.summary) }
    }

    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        let mutants = SelfTest.select(catalogue, filter: arguments.value(.filter))
        if mutants.isEmpty, let filter = arguments.value(.filter) {
            throw RunError.usage("--filter '\(filter)' matches no mutant\nSee 'accord help selftest'.")
        }
        let corpus = arguments.value(.corpus) ?? "../shared/kizunasync-protocol"
        if !FileManager.default.fileExists(atPath: corpus + "/cases/manifest.json") {
            throw RunError.setup(
                "selftest plays the upstream corpus, and \(corpus) holds no cases/manifest.json",
                fix: "pass --corpus FOLDER (a KizunaSync checkout's packages/protocol)"
                    + (arguments.has(.corpus) ? "" : ", or link it at ../shared/kizunasync-protocol"))
        }
        var options = SelfTest.Options(corpus: corpus, extraPaths: arguments.positionals.isEmpty ? defaultInputs : arguments.positionals)
        options.jobs = try SharedOptions.jobs(arguments)
        options.scenarios = try ScenarioFiles.load(arguments.values(.scenarios))
        let own = DriverCommandLine.resolve("accord driver")
        options.powerSyncPaths = ["Conformance/powersync"]
        options.powerSyncClientCommand = { name in own + " --profile powersync" + (name.map { " --fault " + $0 } ?? "") }
        var selftest = SelfTest(
            options: options,
            serverFactory: { name in
                let faults = Set(name.flatMap(ServerFault.init(rawValue:)).map { [$0] } ?? [])
                return { () throws(TargetError) -> any KizunaSync.ServerTarget in
                    do {
                        return try ReferenceServer(faults: faults)
                    } catch {
                        throw TargetError.refused("the embedded reference server did not start: \(error)")
                    }
                }
            },
            clientCommand: { name in name.map { own + " --fault " + $0 } ?? own })
        selftest.powerSyncFactory = { name in
            TargetChoice.embeddedPowerSync(faults: Set(name.flatMap(PowerSync.ServiceFault.init(rawValue:)).map { [$0] } ?? []))
        }
        let outcome = try await selftest.run(mutants) { console.help("accord: selftest: " + $0 + "\n") }
        let report = SelfTestReport(outcome: outcome)
        if let junit = arguments.value(.junit) { try report.writeJUnit(to: junit) }
        console.out(report.markdown)
        return report.isPassing ? ExitCode.success : ExitCode.failure
    }

    /// Conformance/ and every recording in Recordings/.
    private static var defaultInputs: [String] {
        let recordings = (try? FileManager.default.contentsOfDirectory(atPath: "Recordings")) ?? []
        return ["Conformance", "Conformance/powersync"] + recordings.filter { $0.hasSuffix(".jsonl") }.sorted().map { "Recordings/" + $0 }
    }
}
