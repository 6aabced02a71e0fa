/// One option a subcommand takes.
struct OptionSpec: Sendable {
    /// The long name without dashes, e.g. "junit".
    var long: String
    /// The value's placeholder, e.g. "file"; nil for a flag.
    var valueName: String?
    /// One line of help.
    var help: String
}

/// A subcommand's name, help text, options and positional arguments.
struct CommandSpec: Sendable {
    var name: String
    var abstract: String
    var discussion: String?
    var arguments: [(name: String, help: String)]
    var options: [OptionSpec]
    /// The USAGE line after "accord <name> ".
    var usage: String

    /// The help text in swift-argument-parser's layout: OVERVIEW, USAGE, ARGUMENTS, OPTIONS.
    var help: String {
        var lines = ["OVERVIEW: \(abstract)"]
        if let discussion { lines += ["", discussion] }
        lines += ["", "USAGE: accord \(name) \(usage)"]
        if !arguments.isEmpty {
            lines += ["", "ARGUMENTS:"]
            lines += arguments.map { HelpText.row("<\($0.name)>", $0.help) }
        }
        lines += ["", "OPTIONS:"]
        lines += options.map { HelpText.row("--\($0.long)" + ($0.valueName.map { " <\($0)>" } ?? ""), $0.help) }
        lines.append(HelpText.row("-h, --help", "Show help information."))
        return lines.joined(separator: "\n") + "\n"
    }
}

enum HelpText {
    static func row(_ left: String, _ right: String) -> String {
        let padded = "  " + left
        if padded.count >= 26 { return padded + "\n" + String(repeating: " ", count: 26) + right }
        return padded + String(repeating: " ", count: 26 - padded.count) + right
    }
}

/// Arguments parsed against a `CommandSpec`.
struct ParsedArguments: Sendable {
    var values: [String: String] = [:]
    var flags: Set<String> = []
    var positionals: [String] = []
    var wantsHelp = false

    /// Parses `arguments` (after the subcommand name): `--name value`, `--name=value`, flags,
    /// `--` ending options, `-h`/`--help`.
    static func parse(_ arguments: [String], for spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments()
        var index = 0
        var optionsEnded = false
        while index < arguments.count {
            let argument = arguments[index]
            index += 1
            if optionsEnded || !argument.hasPrefix("-") || argument == "-" {
                if spec.arguments.isEmpty { throw UsageError("unexpected argument '\(argument)'", command: spec.name) }
                parsed.positionals.append(argument)
                continue
            }
            if argument == "--" {
                optionsEnded = true
                continue
            }
            if argument == "-h" || argument == "--help" {
                parsed.wantsHelp = true
                continue
            }
            guard argument.hasPrefix("--") else { throw UsageError("unknown option '\(argument)'", command: spec.name) }
            var name = String(argument.dropFirst(2))
            var inlineValue: String?
            if let equals = name.firstIndex(of: "=") {
                inlineValue = String(name[name.index(after: equals)...])
                name = String(name[..<equals])
            }
            guard let option = spec.options.first(where: { $0.long == name }) else {
                throw UsageError("unknown option '--\(name)'", command: spec.name)
            }
            if option.valueName == nil {
                if inlineValue != nil { throw UsageError("option '--\(name)' takes no value", command: spec.name) }
                parsed.flags.insert(name)
                continue
            }
            if let inlineValue {
                parsed.values[name] = inlineValue
            } else {
                guard index < arguments.count else { throw UsageError("missing value for '--\(name) <\(option.valueName ?? "value")>'", command: spec.name) }
                parsed.values[name] = arguments[index]
                index += 1
            }
        }
        return parsed
    }
}

/// A command line that cannot be understood: printed with a pointer to help, exit 64.
struct UsageError: Error, CustomStringConvertible {
    var message: String
    var command: String?

    init(_ message: String, command: String?) {
        self.message = message
        self.command = command
    }

    var description: String {
        let help = command.map { "accord help \($0)" } ?? "accord help"
        return "\(message)\nSee '\(help)'."
    }
}
