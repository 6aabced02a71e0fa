import AccordDriver
import Corpus
import Foundation
import KizunaWire
import PowerSyncWire
import ReferenceClient
import ReferenceDriver
import ReferencePowerSyncClient

/// `accord driver`: the reference client as an `accord-driver/1` driver on standard input and output.
enum DriverCommand: Command {
    static let spec = CommandSpec(
        name: "driver",
        abstract: "Run a reference client (KizunaSync or PowerSync) as an accord-driver/1 driver over standard input and output.",
        discussion: """
            Reads one request per line on standard input and writes one response per line on standard
            output (docs/driver-protocol.md). Exits 0 after close or end of input, 1 when standard output
            breaks. --profile powersync runs the reference PowerSync client instead of the KizunaSync one
            (docs/driver-protocol.md §11). --fault seeds a fault for the kit's self-test and may be
            repeated; the KizunaSync client's faults are:

            """ + ClientFault.allCases.map { HelpText.row($0.rawValue, $0.summary) }.joined(separator: "\n") + """


                and the PowerSync client's (with --profile powersync):

                """ + PowerSync.ClientFault.allCases.map { HelpText.row($0.rawValue, $0.summary) }.joined(separator: "\n"),
        arguments: [],
        options: [
            OptionSpec(.driverProfile, value: "profile", help: "kizunasync (the default) or powersync: which reference client to run."),
            OptionSpec(.fault, value: "name", help: "Seed the named fault (repeatable; the names are listed above).", repeatable: true),
        ])

    /// Runs the driver loop until close, end of input or a broken output.
    /// - Parameters:
    ///   - arguments: the parsed arguments.
    ///   - console: unused; the driver owns standard output.
    /// - Returns: 0 after close or end of input, 1 when a response could not be written.
    /// - Throws: `UsageError` for an unknown fault name.
    static func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
        let profile = arguments.value(.driverProfile) ?? CorpusProfile.kizunaSync.rawValue
        signal(SIGPIPE, SIG_IGN)
        switch CorpusProfile(rawValue: profile) {
        case .powerSync?:
            let faults = try SeededFaults.parse(arguments.values(.fault), as: PowerSync.ClientFault.self, command: spec.name)
            let ending = await DriverLoop.run(
                powerSync: PowerSync.ReferenceClientDriver(faults: faults), input: FileDescriptorInput(), output: FileDescriptorOutput())
            return ending == .outputFailed ? ExitCode.failure : ExitCode.success
        case .kizunaSync?:
            let faults = try SeededFaults.parse(arguments.values(.fault), as: ClientFault.self, command: spec.name)
            let ending = await DriverLoop.run(
                engine: KizunaSync.ReferenceClientDriver(faults: faults), input: FileDescriptorInput(), output: FileDescriptorOutput())
            return ending == .outputFailed ? ExitCode.failure : ExitCode.success
        case nil:
            throw UsageError("--profile takes kizunasync or powersync, found '\(profile)'", command: spec.name)
        }
    }
}

extension OptionKey {
    /// `accord driver --profile`: which reference client the driver runs.
    static let driverProfile = OptionKey("profile")
}
