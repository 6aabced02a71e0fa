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
