/// A failure of the HTTP layer: a request the parser refuses (with the status to answer), or a
/// socket operation that failed.
public struct HTTPError: Error, CustomStringConvertible, Sendable, Hashable {
    private enum Code: Sendable, Hashable {
        case badRequest, uriTooLong, headersTooLarge, bodyTooLarge, timeout, versionNotSupported
        case notImplemented, expectationFailed, unavailable, socket
    }
    private let code: Code
    /// What went wrong, in a sentence fragment.
    public let detail: String

    private init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// A malformed request (400).
    /// - Returns: the error.
    public static func badRequest(_ detail: String) -> HTTPError { HTTPError(.badRequest, detail) }

    /// A request line over the limit (414).
    /// - Returns: the error.
    public static func uriTooLong(_ detail: String) -> HTTPError { HTTPError(.uriTooLong, detail) }

    /// A header block over the limit (431).
    /// - Returns: the error.
    public static func headersTooLarge(_ detail: String) -> HTTPError { HTTPError(.headersTooLarge, detail) }

    /// A body over the limit (413).
    /// - Returns: the error.
    public static func bodyTooLarge(_ detail: String) -> HTTPError { HTTPError(.bodyTooLarge, detail) }

    /// A request that did not arrive in time (408).
    /// - Returns: the error.
    public static func timeout(_ detail: String) -> HTTPError { HTTPError(.timeout, detail) }

    /// An HTTP version other than 1.0 and 1.1 (505).
    /// - Returns: the error.
    public static func versionNotSupported(_ detail: String) -> HTTPError { HTTPError(.versionNotSupported, detail) }

    /// A transfer coding the server does not implement (501).
    /// - Returns: the error.
    public static func notImplemented(_ detail: String) -> HTTPError { HTTPError(.notImplemented, detail) }

    /// An `Expect` other than `100-continue` (417).
    /// - Returns: the error.
    public static func expectationFailed(_ detail: String) -> HTTPError { HTTPError(.expectationFailed, detail) }

    /// The server is at its connection cap (503).
    /// - Returns: the error.
    public static func unavailable(_ detail: String) -> HTTPError { HTTPError(.unavailable, detail) }

    /// A socket call failed (bind, listen, accept); not a request error.
    /// - Parameter detail: the call and errno text.
    /// - Returns: the error.
    public static func socket(_ detail: String) -> HTTPError { HTTPError(.socket, detail) }

    /// The status to answer with; 500 for socket errors.
    public var status: Int {
        switch code {
        case .badRequest: 400
        case .uriTooLong: 414
        case .headersTooLarge: 431
        case .bodyTooLarge: 413
        case .timeout: 408
        case .versionNotSupported: 505
        case .notImplemented: 501
        case .expectationFailed: 417
        case .unavailable: 503
        case .socket: 500
        }
    }

    /// True for a socket failure rather than a refused request.
    public var isSocketError: Bool { code == .socket }

    /// The status and the detail.
    public var description: String { code == .socket ? "socket error: \(detail)" : "HTTP \(status): \(detail)" }
}
