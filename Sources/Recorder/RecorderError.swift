/// A recording proxy that cannot start: an unusable upstream URL, a listener that cannot be
/// bound, or a recording file that cannot be created. Never quotes recorded content.
public struct RecorderError: Error, CustomStringConvertible, Sendable {
    private enum Code: Sendable { case upstream, listen, recording, client, trust }
    private let code: Code
    private let detail: String

    private init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// The upstream URL is not usable.
    /// - Parameter detail: why.
    /// - Returns: the error.
    public static func upstream(_ detail: String) -> RecorderError { RecorderError(.upstream, detail) }

    /// The listening address cannot be bound.
    /// - Parameter detail: the address and the reason.
    /// - Returns: the error.
    public static func listen(_ detail: String) -> RecorderError { RecorderError(.listen, detail) }

    /// The recording file cannot be created or written.
    /// - Parameter detail: the file and the reason.
    /// - Returns: the error.
    public static func recording(_ detail: String) -> RecorderError { RecorderError(.recording, detail) }

    /// The upstream client (libcurl) cannot be set up.
    /// - Parameter detail: why.
    /// - Returns: the error.
    public static func client(_ detail: String) -> RecorderError { RecorderError(.client, detail) }

    /// The certificate authorities given for the upstream cannot be used.
    /// - Parameter detail: the file and the reason.
    /// - Returns: the error.
    public static func trust(_ detail: String) -> RecorderError { RecorderError(.trust, detail) }

    /// True when the listening address could not be bound: a failure while the command runs
    /// (the address is taken or not this machine's), not a mistake in its arguments.
    public var isListenFailure: Bool { code == .listen }

    /// What went wrong.
    public var description: String {
        switch code {
        case .upstream: "--upstream: \(detail)"
        case .listen: "cannot listen: \(detail)"
        case .recording: detail
        case .client: "the upstream client did not start: \(detail)"
        case .trust: "--upstream-ca: \(detail)"
        }
    }
}
