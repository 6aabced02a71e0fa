import Corpus

/// A run that cannot proceed: bad input or an unwritable report. Protocol violations are
/// findings, never a `RunError`. The CLI prints it on one line and exits 64.
public struct RunError: Error, CustomStringConvertible, Sendable {
    private enum Code: Sendable {
        case input(CorpusError)
        case usage(String)
        case output(path: String, reason: String)
    }

    private let code: Code

    /// Bad corpus, transcript or recording input.
    /// - Parameter error: the corpus error.
    /// - Returns: the run error.
    public static func input(_ error: CorpusError) -> RunError { RunError(code: .input(error)) }

    /// A usage problem, e.g. a path that is neither a corpus nor a transcript.
    /// - Parameter message: what is wrong.
    /// - Returns: the run error.
    public static func usage(_ message: String) -> RunError { RunError(code: .usage(message)) }

    /// A report that cannot be written.
    /// - Parameters:
    ///   - path: the report path.
    ///   - reason: why.
    /// - Returns: the run error.
    public static func output(_ path: String, _ reason: String) -> RunError { RunError(code: .output(path: path, reason: reason)) }

    /// One line for the user.
    public var description: String {
        switch code {
        case .input(let error): "\(error)"
        case .usage(let message): message
        case .output(let path, let reason): "\(path): cannot write report: \(reason)"
        }
    }
}
