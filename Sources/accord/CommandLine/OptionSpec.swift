/// One option a subcommand takes: its key, its value's placeholder (none for a flag), whether
/// it must be given or may be repeated, and one line of help. Help, usage, the man page and the
/// shell completions are all drawn from these.
struct OptionSpec: Sendable {
    /// The option's name.
    var key: OptionKey
    /// The value's placeholder, e.g. "file"; nil for a flag.
    var valueName: String?
    /// One line of help.
    var help: String
    /// The command cannot run without it (drawn without brackets in the usage line).
    var isRequired = false
    /// It may be given more than once (drawn with "..." in the usage line).
    var isRepeatable = false

    /// Makes an option that takes a value.
    /// - Parameters:
    ///   - key: its name.
    ///   - value: the value's placeholder.
    ///   - help: one line of help.
    ///   - required: whether the command needs it.
    ///   - repeatable: whether it may be given more than once.
    init(_ key: OptionKey, value: String, help: String, required: Bool = false, repeatable: Bool = false) {
        self.key = key
        self.valueName = value
        self.help = help
        self.isRequired = required
        self.isRepeatable = repeatable
    }

    /// Makes a flag.
    /// - Parameters:
    ///   - key: its name.
    ///   - help: one line of help.
    init(flag key: OptionKey, help: String) {
        self.key = key
        self.valueName = nil
        self.help = help
    }

    /// The option as the help lists it: "--junit <file>".
    var synopsis: String { key.description + (valueName.map { " <\($0)>" } ?? "") }

    /// The option as the usage line draws it: "[--junit <file>]", "--out <file>", "[--redact <name> ...]".
    var usage: String {
        let repeated = isRepeatable ? " ..." : ""
        return isRequired ? synopsis + repeated : "[" + synopsis + repeated + "]"
    }
}
