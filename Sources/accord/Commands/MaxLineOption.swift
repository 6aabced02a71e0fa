import Corpus
import Runner

/// `--max-line <bytes>`, the cap on one recording line (and on a whole JSON input file) that the
/// commands reading recordings and transcripts share: a longer line is an input error (exit 64)
/// naming the file and line, found having held no more than the cap.
enum MaxLineOption {
    /// The option as the commands list it.
    static let spec = OptionSpec(
        long: "max-line", valueName: "bytes",
        help:
            "The longest recording line, and the largest transcript or HAR file, read (default \(RecordingReader.defaultMaxLine), 128 MiB); a suffix K, M or G counts KiB, MiB or GiB."
    )

    /// The cap given, or the default.
    /// - Parameter arguments: the parsed command line.
    /// - Returns: the cap in bytes.
    /// - Throws: `RunError.usage` for a value that is not a positive number of bytes.
    static func value(_ arguments: ParsedArguments) throws(RunError) -> Int {
        guard let text = arguments.values["max-line"] else { return RecordingReader.defaultMaxLine }
        return try parse(text)
    }

    /// Reads "1048576", "64K", "64M" or "1G".
    /// - Parameter text: the option's value.
    /// - Returns: the bytes.
    /// - Throws: `RunError.usage` when it is not a positive number of bytes.
    static func parse(_ text: String) throws(RunError) -> Int {
        var digits = Substring(text)
        var scale = 1
        switch digits.last {
        case "K", "k": scale = 1 << 10
        case "M", "m": scale = 1 << 20
        case "G", "g": scale = 1 << 30
        default: break
        }
        if scale != 1 { digits = digits.dropLast() }
        guard !digits.isEmpty, digits.utf8.count <= 12, digits.allSatisfy(\.isASCII), digits.allSatisfy(\.isWholeNumber),
            let count = Int(digits), count >= 1
        else {
            throw RunError.usage("--max-line takes a positive number of bytes (optionally with K, M or G), found '\(text)'")
        }
        return count * scale
    }
}
