import AccordVersion
import Capture
import Foundation
import Harness
import Lanes

/// Standard output and error.
struct Console {
    func out(_ text: String, newline: Bool = true) {
        FileHandle.standardOutput.write(Data((newline ? text + "\n" : text).utf8))
    }

    func help(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// An error line, redacted as reports are: a target URL's password, a driver's stderr tail
    /// or a server's answer quoted in a message never reaches the terminal or a CI log.
    func error(_ text: String) {
        let shown = Redactor(policy: RedactionPolicy(), capacity: 64).message(text)
        FileHandle.standardError.write(Data(("accord: error: " + shown + "\n").utf8))
    }
}

enum Accord {
    /// Every subcommand, in the order help lists them.
    static var commands: [any Command.Type] {
        [
            CheckCommand.self, RunCommand.self, ServeCommand.self, RecordCommand.self, RulesCommand.self, DriverCommand.self,
            DiffCommand.self, ConvertCommand.self, SelftestCommand.self, PostgresInitCommand.self, JWTCommand.self,
            ManCommand.self, CompletionsCommand.self, ScenariosCommand.self, ExploreCommand.self, ShrinkCommand.self,
        ]
    }

    /// Every subcommand's spec.
    static var specs: [CommandSpec] { commands.map { $0.spec } }

    /// The one-line overview of the root help and the man page's NAME.
    static let overview = "Accord checks that a client or server speaks the KizunaSync row-sync protocol correctly."

    static var rootHelp: String {
        var lines = [
            "OVERVIEW: \(overview)", "", "USAGE: accord <subcommand>", "", "OPTIONS:", HelpText.row("--version", "Show the version."),
            HelpText.row("-h, --help", "Show help information."), "", "SUBCOMMANDS:",
        ]
        lines += specs.map { HelpText.row($0.name, $0.abstract) }
        lines.append(HelpText.row("help", "Show subcommand help information."))
        lines += ["", "  See 'accord help <subcommand>' for detailed help."]
        return lines.joined(separator: "\n") + "\n"
    }

    static func main(_ arguments: [String], console: Console) async -> Int32 {
        guard let name = arguments.first else {
            console.help(rootHelp)
            return ExitCode.usage
        }
        switch name {
        case "-h", "--help":
            console.out(rootHelp, newline: false)
            return ExitCode.success
        case "--version":
            console.out(AccordVersion.line)
            return ExitCode.success
        case "help":
            guard let topic = arguments.dropFirst().first else {
                console.out(rootHelp, newline: false)
                return ExitCode.success
            }
            guard let command = commands.first(where: { $0.spec.name == topic }) else {
                console.error(UsageError("unknown subcommand '\(topic)'", command: nil).description)
                return ExitCode.usage
            }
            console.out(command.spec.help, newline: false)
            return ExitCode.success
        default:
            break
        }
        guard let command = commands.first(where: { $0.spec.name == name }) else {
            console.error(UsageError("unknown subcommand '\(name)'", command: nil).description)
            return ExitCode.usage
        }
        do {
            let parsed = try ParsedArguments.parse(Array(arguments.dropFirst()), for: command.spec)
            if parsed.wantsHelp {
                console.out(command.spec.help, newline: false)
                return ExitCode.success
            }
            return try await command.run(parsed, console: console)
        } catch {
            console.error("\(error)")
            return status(of: error)
        }
    }

    /// The exit status an error ends the process with.
    /// - Parameter error: what a command threw.
    /// - Returns: 64, 69, 78, or 70 for an error no command documents.
    static func status(of error: any Error) -> Int32 {
        switch error {
        case is UsageError: ExitCode.usage
        case let error as RunError where error.isSetup: ExitCode.setup
        case let error as RunError where error.isUnavailable: ExitCode.unavailable
        case is RunError: ExitCode.usage
        default: ExitCode.software
        }
    }
}

exit(await Accord.main(Array(CommandLine.arguments.dropFirst()), console: Console()))
