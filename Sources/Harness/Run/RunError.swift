import Corpus

/// A run that cannot proceed: bad input, an unwritable report, or a target that is not set up to
/// be tested. Protocol violations are findings, never a `RunError`. The CLI prints it on one
/// line and exits 64, 78 (EX_CONFIG) for a setup problem (`isSetup`), or 69 (EX_UNAVAILABLE)
/// for a runtime failure of something the command needs (`isUnavailable`).
public struct RunError: Error, CustomStringConvertible, Sendable {
    private enum Code: Sendable {
        case input(CorpusError)
        case usage(String)
        case output(path: String, reason: String)
        case setup(problem: String, fix: String)
        case unavailable(String)
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

    /// A target the run cannot test as set up (a server that is not reachable, a fixture endpoint
    /// that is off, a minted JWT the server refuses, a driver that is not found or does not speak
    /// the driver protocol), or a run in which no check ran: found before the first case, so it
    /// is never mistaken for a regression.
    /// - Parameters:
    ///   - problem: what is wrong, e.g. "the server at http://127.0.0.1:1 is not reachable".
    ///   - fix: how to fix it, e.g. "start it, or pass the right --server URL".
    /// - Returns: the run error.
    public static func setup(_ problem: String, fix: String) -> RunError { RunError(code: .setup(problem: problem, fix: fix)) }

    /// Something the command needs failed while it ran: an address it cannot listen on, a
    /// database it cannot reach, a server that did not start. Not the user's typing, so not a
    /// usage error.
    /// - Parameter problem: what failed, e.g. "cannot listen on 127.0.0.1:80: permission denied".
    /// - Returns: the run error.
    public static func unavailable(_ problem: String) -> RunError { RunError(code: .unavailable(problem)) }

    /// True for a runtime failure (`unavailable(_:)`): the CLI exits 69 rather than 64.
    public var isUnavailable: Bool {
        if case .unavailable = code { return true }
        return false
    }

    /// True for a setup problem (`setup(_:fix:)`): the CLI exits 78 rather than 64.
    public var isSetup: Bool {
        if case .setup = code { return true }
        return false
    }

    /// One line for the user.
    public var description: String {
        switch code {
        case .input(let error): "\(error)"
        case .usage(let message): message
        case .output(let path, let reason): "\(path): cannot write report: \(reason)"
        case .setup(let problem, let fix): "setup: \(problem): \(fix)"
        case .unavailable(let problem): problem
        }
    }
}
