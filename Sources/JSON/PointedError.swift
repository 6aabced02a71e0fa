/// The kinds of one family of protocol errors: each kind has the code its protocol gives it.
public protocol PointedErrorKind: Sendable, Hashable, CustomStringConvertible {
    /// The protocol's code for the kind, e.g. "UNKNOWN_SIGNAL" or "DRIVER_MISSING_KEY".
    var protocolCode: String { get }
}

/// An error that points at the offending value of a JSON message: its kind, the JSON pointer of
/// the value and what is wrong. `WireError` (KizunaSync's messages) and the driver protocol's
/// error are this shape with their own kinds.
public struct PointedError<ErrorKind: PointedErrorKind>: Error, CustomStringConvertible, Sendable, Hashable {
    /// The family's kinds.
    public typealias Kind = ErrorKind

    /// The kind of problem.
    public let kind: Kind
    /// Where the offending value is, relative to the message.
    public let pointer: JSONPointer
    /// What is wrong, in a sentence fragment.
    public let detail: String

    /// Makes an error.
    /// - Parameters:
    ///   - kind: the kind.
    ///   - pointer: where the value is.
    ///   - detail: what is wrong.
    public init(_ kind: Kind, at pointer: JSONPointer, _ detail: String) {
        self.kind = kind
        self.pointer = pointer
        self.detail = detail
    }

    /// The protocol's code for this error.
    public var protocolCode: String { kind.protocolCode }

    /// "UNKNOWN_SIGNAL at /signal/type: …" (the pointer "/" for the message itself).
    public var description: String {
        "\(protocolCode) at \(pointer.readable): \(detail)"
    }
}
