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
