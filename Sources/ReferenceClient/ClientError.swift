/// A refusal or failure of the client engine, carrying one engine error code of spec/engine-errors.json.
public struct ClientError: Error, CustomStringConvertible, Equatable {
    /// The engine error codes this engine raises.
    enum Code: String, Sendable {
        case softDeleteViolation = "SOFT_DELETE_VIOLATION"
        case unknownTable = "UNKNOWN_TABLE"
        case localConstraint = "LOCAL_CONSTRAINT"
        case localUnsupported = "LOCAL_UNSUPPORTED"
        case store = "STORE"
        case json = "JSON"
    }

    private let kind: Code

    /// A human-readable explanation of the failure.
    public let message: String

    init(_ kind: Code, _ message: String) {
        self.kind = kind
        self.message = message
    }

    /// The engine error code, e.g. `SOFT_DELETE_VIOLATION`.
    public var code: String { kind.rawValue }

    /// The code followed by the message.
    public var description: String { "\(code): \(message)" }
}
