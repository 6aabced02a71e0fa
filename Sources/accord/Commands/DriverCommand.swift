import AccordDriver
import Foundation
import ReferenceClient
import ReferenceDriver

/// `accord driver`: the reference client as an `accord-driver/1` driver on standard input and output.
enum DriverCommand: Command {
    static let spec = CommandSpec(
        name: "driver",
        abstract: "Run the reference client as an accord-driver/1 driver over standard input and output.",
        discussion: """
            Reads one request per line on standard input and writes one response per line on standard
            output (docs/driver-protocol.md). Exits 0 after close or end of input, 1 when standard output
            breaks. --fault seeds a fault for the kit's self-test and may be repeated; the faults are:

            """ + ClientFault.allCases.map { HelpText.row($0.rawValue, $0.summary) }.joined(separator: "\n"),
        arguments: [],
        options: [
            OptionSpec(.fault, value: "name", help: "Seed the named fault (repeatable; the names are listed above).", repeatable: true)
        ])

    /// Runs the driver loop until close, end of input or a broken output.
    /// - Parameters:
    ///   - arguments: the parsed arguments.
    ///   - console: unused; the driver owns standard output.
    /// - Returns: 0 after close or end of input, 1 when a response could not be written.
    /// - Throws: `UsageError` for an unknown fault name.
    static func run(_ arguments: ParsedArguments, console: Console) async throws(UsageError) -> Int32 {
        var faults: Set<ClientFault> = []
        for name in arguments.values(.fault) {
            guard let fault = ClientFault(rawValue: name) else {
                let known = ClientFault.allCases.map(\.rawValue).joined(separator: ", ")
                throw UsageError("unknown fault '\(name)' (known: \(known))", command: spec.name)
            }
            faults.insert(fault)
        }
        signal(SIGPIPE, SIG_IGN)
        let ending = await DriverLoop.run(
            engine: ReferenceClientDriver(faults: faults), input: FileDescriptorInput(), output: FileDescriptorOutput())
        return ending == .outputFailed ? ExitCode.failure : ExitCode.success
    }
}
