/// A failure of the reference server itself (storage, seeding), never a protocol outcome:
/// verdicts, signals and PostgREST error replies are `RPCReply` values.
public struct ReferenceServerError: Error, CustomStringConvertible, Sendable {
    private enum Code: Sendable { case open, sql, corrupt, fixture, config }
    private let code: Code
    /// What happened.
    public let detail: String

    private init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    static func open(_ detail: String) -> ReferenceServerError { ReferenceServerError(.open, detail) }
    static func sql(_ detail: String) -> ReferenceServerError { ReferenceServerError(.sql, detail) }
    static func corrupt(_ detail: String) -> ReferenceServerError { ReferenceServerError(.corrupt, detail) }
    static func fixture(_ detail: String) -> ReferenceServerError { ReferenceServerError(.fixture, detail) }
    static func config(_ detail: String) -> ReferenceServerError { ReferenceServerError(.config, detail) }

    /// The kind of failure and its detail.
    public var description: String {
        switch code {
        case .open: "reference server cannot open its database: \(detail)"
        case .sql: "reference server storage error: \(detail)"
        case .corrupt: "reference server found corrupt stored data: \(detail)"
        case .fixture: "reference server refused a fixture operation: \(detail)"
        case .config: "reference server configuration is invalid: \(detail)"
        }
    }
}
