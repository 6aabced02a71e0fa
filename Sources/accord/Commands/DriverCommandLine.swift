import Foundation

/// Resolves a `--client` command line: a leading `accord` word means this very binary, so
/// `accord run --client "accord driver"` works without `accord` on the PATH.
enum DriverCommandLine {
    static func resolve(_ command: String) -> String {
        let trimmed = command.drop { $0 == " " }
        guard trimmed == "accord" || trimmed.hasPrefix("accord ") else { return command }
        let own = Bundle.main.executablePath ?? CommandLine.arguments[0]
        return quote(own) + trimmed.dropFirst("accord".count)
    }

    /// Single-quotes a word for /bin/sh.
    static func quote(_ word: String) -> String { "'" + word.replacingOccurrences(of: "'", with: "'\\''") + "'" }
}
