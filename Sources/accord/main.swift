import AccordVersion
import Foundation
import Runner

/// Process exit codes: 0 pass, 1 failures, 64 usage or input error (EX_USAGE), 78 a target that
/// is not set up to be tested, or a run in which no check ran (EX_CONFIG).
enum ExitCode {
    static let success: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 64
    static let setup: Int32 = 78
}

/// Standard output and error.
struct Console {
    func out(_ text: String, newline: Bool = true) {
        FileHandle.standardOutput.write(Data((newline ? text + "\n" : text).utf8))
    }

    func help(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    func error(_ text: String) {
        FileHandle.standardError.write(Data(("accord: error: " + text + "\n").utf8))
    }
}

enum Accord {
    static let commands: [CommandSpec] = [
        CheckCommand.spec, RunCommand.spec, ServeCommand.spec, RecordCommand.spec, RulesCommand.spec, DriverCommand.spec, DiffCommand.spec,
        ConvertCommand.spec, SelftestCommand.spec, PostgresInitCommand.spec, JWTCommand.spec,
    ]

    static var rootHelp: String {
        var lines = [
            "OVERVIEW: Accord checks that a client or server speaks the KizunaSync row-sync protocol correctly.", "",
            "USAGE: accord <subcommand>", "", "OPTIONS:", HelpText.row("--version", "Show the version."),
            HelpText.row("-h, --help", "Show help information."), "", "SUBCOMMANDS:",
        ]
        lines += commands.map { HelpText.row($0.name, $0.abstract) }
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
            guard let spec = commands.first(where: { $0.name == topic }) else {
                console.error(UsageError("unknown subcommand '\(topic)'", command: nil).description)
                return ExitCode.usage
            }
            console.out(spec.help, newline: false)
            return ExitCode.success
        default:
            break
        }
        guard let spec = commands.first(where: { $0.name == name }) else {
            console.error(UsageError("unknown subcommand '\(name)'", command: nil).description)
            return ExitCode.usage
        }
        do {
            let parsed = try ParsedArguments.parse(Array(arguments.dropFirst()), for: spec)
            if parsed.wantsHelp {
                console.out(spec.help, newline: false)
                return ExitCode.success
            }
            switch spec.name {
            case CheckCommand.spec.name: return try CheckCommand.run(parsed, console: console)
            case RunCommand.spec.name: return try await RunCommand.run(parsed, console: console)
            case ServeCommand.spec.name: return try await ServeCommand.run(parsed, console: console)
            case RecordCommand.spec.name: return try await RecordCommand.run(parsed, console: console)
            case DriverCommand.spec.name: return try await DriverCommand.run(parsed, console: console)
            case DiffCommand.spec.name: return try await DiffCommand.run(parsed, console: console)
            case ConvertCommand.spec.name: return try ConvertCommand.run(parsed, console: console)
            case SelftestCommand.spec.name: return try await SelftestCommand.run(parsed, console: console)
            case PostgresInitCommand.spec.name: return try await PostgresInitCommand.run(parsed, console: console)
            case JWTCommand.spec.name: return try JWTCommand.run(parsed, console: console)
            default: return try RulesCommand.run(parsed, console: console)
            }
        } catch let error as UsageError {
            console.error(error.description)
            return ExitCode.usage
        } catch let error as RunError where error.isSetup {
            console.error(error.description)
            return ExitCode.setup
        } catch {
            console.error("\(error)")
            return ExitCode.usage
        }
    }
}

exit(await Accord.main(Array(CommandLine.arguments.dropFirst()), console: Console()))
