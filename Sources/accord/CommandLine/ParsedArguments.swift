/// Arguments parsed against a `CommandSpec`.
struct ParsedArguments: Sendable {
    /// Every value of an option given more than once, in order (`values` keeps the last).
    var repeated: [String: [String]] = [:]
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
                parsed.repeated[name, default: []].append(inlineValue)
            } else {
                guard index < arguments.count else {
                    throw UsageError("missing value for '--\(name) <\(option.valueName ?? "value")>'", command: spec.name)
                }
                parsed.values[name] = arguments[index]
                parsed.repeated[name, default: []].append(arguments[index])
                index += 1
            }
        }
        return parsed
    }
}
