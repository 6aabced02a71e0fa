import Corpus
import Foundation
import Lanes

/// The options several commands take with the same meaning, declared once: the report paths,
/// the console, the input cap, the run's selection and scheduling. A command lists these specs
/// and reads them with the typed readers here.
enum SharedOptions {
    /// `--junit`, `--json`, `--html`: where reports go.
    static let reports = [
        OptionSpec(.junit, value: "file", help: "Write a JUnit XML report to <file>."),
        OptionSpec(.json, value: "file", help: "Write a JSON report to <file>."),
        OptionSpec(
            .html, value: "file",
            help: "Write a self-contained HTML page to <file>: a summary, a sequence picture per case, each failure's rule and diff."),
    ]

    /// `--jobs <n>`, read by `jobs(_:)`.
    static let jobs = OptionSpec(.jobs, value: "n", help: "Cases run at once (default: the number of cores).")

    /// `--color`.
    static let color = OptionSpec(flag: .color, help: "Colour the console summary.")

    /// `--max-line <bytes>`, the cap on one recording line (and on a whole JSON input file) that
    /// the commands reading recordings and transcripts share: a longer line is an input error
    /// (exit 64) naming the file and line, found having held no more than the cap.
    static let maxLine = OptionSpec(
        .maxLine, value: "bytes",
        help:
            "The longest recording line, and the largest transcript or HAR file, read (default \(RecordingReader.defaultMaxLine), 128 MiB); a suffix K, M or G counts KiB, MiB or GiB."
    )

    /// `--jwt-secret` and `--apikey` for URL targets.
    static func urlTarget(_ secretHelp: String, apikeyHelp: String) -> [OptionSpec] {
        [OptionSpec(.jwtSecret, value: "secret", help: secretHelp), OptionSpec(.apikey, value: "key", help: apikeyHelp)]
    }

    /// The `--max-line` given, or the default.
    /// - Returns: the cap in bytes.
    /// - Throws: `UsageError` for a value that is not a positive number of bytes.
    static func maxLine(_ arguments: ParsedArguments) throws(UsageError) -> Int {
        let bytes = OptionConversion<Int>.bytes(atLeast: 1, expected: "a positive number of bytes (optionally with K, M or G)")
        return try arguments.value(.maxLine, as: bytes) ?? RecordingReader.defaultMaxLine
    }

    /// The `--jobs` given, or the number of cores.
    /// - Returns: how many cases run at once.
    /// - Throws: `UsageError` for a value that is not a positive number.
    static func jobs(_ arguments: ParsedArguments) throws(UsageError) -> Int {
        try arguments.value(.jobs, as: .positive) ?? max(1, ProcessInfo.processInfo.activeProcessorCount)
    }
}

extension OptionConversion where Value == ResponseTier {
    /// `pass` or `bound` (`semantic`, its old name, too).
    static let tier = OptionConversion(expected: "pass or bound") { ResponseTier.named($0) }
}

extension OptionConversion where Value == CorpusProfile {
    /// A protocol profile: `kizunasync` or `powersync`.
    static let profile = OptionConversion(expected: "kizunasync or powersync") { CorpusProfile(rawValue: $0) }
}
