/// A subcommand as data: its name, help text, positional arguments and options. Parsing,
/// `--help`, the usage line, the man page and the completions are all drawn from it.
struct CommandSpec: Sendable {
    /// One positional argument.
    struct Argument: Sendable {
        /// Its placeholder, e.g. "path".
        var name: String
        /// One line of help.
        var help: String
        /// It may be given more than once.
        var isRepeatable = false
        /// It may be left out.
        var isOptional = false

        /// The argument as the usage line draws it: "<path> ...", "[<id>]".
        var usage: String {
            let word = "<\(name)>" + (isRepeatable ? " ..." : "")
            return isOptional ? "[\(word)]" : word
        }
    }

    /// The subcommand, e.g. "run".
    var name: String
    /// One line: what it does.
    var abstract: String
    /// Paragraphs after the abstract.
    var discussion: String?
    /// Its positional arguments, in order.
    var arguments: [Argument]
    /// Its options, in the order help lists them.
    var options: [OptionSpec]

    /// The option named by `key`, if this command takes it.
    /// - Parameter key: the option's name.
    /// - Returns: its spec.
    func option(_ key: OptionKey) -> OptionSpec? { options.first { $0.key == key } }

    /// The option typed as `--<long>`, if this command takes it.
    /// - Parameter long: the name without dashes.
    /// - Returns: its spec.
    func option(named long: String) -> OptionSpec? { options.first { $0.key.long == long } }

    /// The USAGE line after "accord <name> ": every option, then the arguments.
    var usage: String {
        (options.map(\.usage) + arguments.map(\.usage)).joined(separator: " ")
    }

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
        lines += options.map { HelpText.row($0.synopsis, $0.help) }
        lines.append(HelpText.row("-h, --help", "Show help information."))
        return lines.joined(separator: "\n") + "\n"
    }
}
