/// Arguments parsed against a `CommandSpec`, read back by `OptionKey`.
struct ParsedArguments: Sendable {
    /// The command they were parsed for; refusals name it.
    let command: String
    /// Every value of each option, in the order given.
    private var given: [OptionKey: [String]] = [:]
    /// The flags given.
    private var flags: Set<OptionKey> = []
    /// The positional arguments, in order.
    private(set) var positionals: [String] = []
    /// `-h` or `--help` was given.
    private(set) var wantsHelp = false

    private init(command: String) { self.command = command }

    /// The last value given for `key`, as typed.
    /// - Returns: its text, or nil when it was not given.
    func value(_ key: OptionKey) -> String? { given[key]?.last }

    /// Every value given for `key`, in order.
    /// - Parameter key: a repeatable option.
    /// - Returns: its texts; empty when it was not given.
    func values(_ key: OptionKey) -> [String] { given[key] ?? [] }

    /// Whether the option (flag or not) was given.
    /// - Returns: true when it was given.
    func has(_ key: OptionKey) -> Bool { flags.contains(key) || given[key] != nil }

    /// The last value given for `key`, converted.
    /// - Parameters:
    ///   - key: the option.
    ///   - conversion: how its text becomes a value.
    /// - Returns: the value, or nil when it was not given.
    /// - Throws: `UsageError` naming the option, what it takes and what was found.
    func value<Value>(_ key: OptionKey, as conversion: OptionConversion<Value>) throws(UsageError) -> Value? {
        guard let text = value(key) else { return nil }
        guard let value = conversion.read(text) else {
            throw UsageError("\(key) takes \(conversion.expected), found '\(text)'", command: command)
        }
        return value
    }

    /// Parses `arguments` (after the subcommand name): `--name value`, `--name=value`, flags,
    /// `--` ending options, `-h`/`--help`.
    static func parse(_ arguments: [String], for spec: CommandSpec) throws(UsageError) -> ParsedArguments {
        var parsed = ParsedArguments(command: spec.name)
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
            guard let option = spec.option(named: name) else { throw UsageError("unknown option '--\(name)'", command: spec.name) }
            guard let valueName = option.valueName else {
                if inlineValue != nil { throw UsageError("option '--\(name)' takes no value", command: spec.name) }
                parsed.flags.insert(option.key)
                continue
            }
            if let inlineValue {
                parsed.given[option.key, default: []].append(inlineValue)
            } else {
                guard index < arguments.count else {
                    throw UsageError("missing value for '--\(name) <\(valueName)>'", command: spec.name)
                }
                let value = arguments[index]
                // An option where the value should be means the value was left out; the words
                // after it may be another option's value (a secret), so none of them is echoed.
                if value.hasPrefix("--"), spec.option(named: String(value.dropFirst(2).prefix { $0 != "=" })) != nil {
                    throw UsageError(
                        "missing value for '--\(name) <\(valueName)>' (found the option '\(value.prefix { $0 != "=" })')",
                        command: spec.name)
                }
                parsed.given[option.key, default: []].append(value)
                index += 1
            }
        }
        return parsed
    }
}
