import JSON
import KizunaWire

/// A driver-protocol failure: a request line or response line that breaks docs/driver-protocol.md,
/// with its `DRIVER_*` code and the JSON pointer of the offending value.
public typealias DriverError = PointedError<DriverErrorKind>

/// What kind of problem a `DriverError` is; compare with the static kinds, e.g.
/// `error.kind == .unknownOp`.
public struct DriverErrorKind: PointedErrorKind {
    fileprivate enum Code: String, Sendable, Hashable, CaseIterable {
        case badJSON, unknownOp, missingKey, invalidValue, unknownKey, protocolVersion, sequence, unsupported
        case lineTooLong, engineFailure, badResponse
    }
    fileprivate let code: Code

    /// The line is not JSON (DRIVER_BAD_JSON).
    public static let badJSON = Self(code: .badJSON)
    /// The `op` names no operation of the protocol (DRIVER_UNKNOWN_OP).
    public static let unknownOp = Self(code: .unknownOp)
    /// A required key is absent (DRIVER_MISSING_KEY).
    public static let missingKey = Self(code: .missingKey)
    /// A value has the wrong JSON type or breaks its grammar (DRIVER_INVALID_VALUE).
    public static let invalidValue = Self(code: .invalidValue)
    /// An object carries a key the protocol does not define (DRIVER_UNKNOWN_KEY).
    public static let unknownKey = Self(code: .unknownKey)
    /// The hello names a protocol version the driver does not speak (DRIVER_PROTOCOL_VERSION).
    public static let protocolVersion = Self(code: .protocolVersion)
    /// The request is not allowed at this point of the session (DRIVER_SEQUENCE).
    public static let sequence = Self(code: .sequence)
    /// The request needs a capability the driver did not announce (DRIVER_UNSUPPORTED).
    public static let unsupported = Self(code: .unsupported)
    /// The line is longer than the driver accepts (DRIVER_LINE_TOO_LONG).
    public static let lineTooLong = Self(code: .lineTooLong)
    /// The engine failed with an error that carries no protocol code (DRIVER_ENGINE_FAILURE).
    public static let engineFailure = Self(code: .engineFailure)
    /// A response line from a driver breaks the protocol (DRIVER_BAD_RESPONSE, runner side).
    public static let badResponse = Self(code: .badResponse)

    /// Every kind, in declaration order.
    public static let all: [Self] = Code.allCases.map { Self(code: $0) }

    /// The wire code, e.g. "DRIVER_UNKNOWN_OP".
    public var protocolCode: String {
        switch code {
        case .badJSON: "DRIVER_BAD_JSON"
        case .unknownOp: "DRIVER_UNKNOWN_OP"
        case .missingKey: "DRIVER_MISSING_KEY"
        case .invalidValue: "DRIVER_INVALID_VALUE"
        case .unknownKey: "DRIVER_UNKNOWN_KEY"
        case .protocolVersion: "DRIVER_PROTOCOL_VERSION"
        case .sequence: "DRIVER_SEQUENCE"
        case .unsupported: "DRIVER_UNSUPPORTED"
        case .lineTooLong: "DRIVER_LINE_TOO_LONG"
        case .engineFailure: "DRIVER_ENGINE_FAILURE"
        case .badResponse: "DRIVER_BAD_RESPONSE"
        }
    }

    /// A short name for the kind, e.g. "unknownOp".
    public var description: String { code.rawValue }
}

extension DriverError {
    /// The wire code of this error, e.g. "DRIVER_MISSING_KEY".
    public var code: String { kind.protocolCode }

    /// Classifies a shape error that `ObjectReader` (or a KizunaWire reader) raised while
    /// reading a request, so that missing and unknown keys keep their own codes.
    /// - Parameter error: the reader's error.
    /// - Returns: the driver error at the same pointer.
    static func request(_ error: WireError) -> DriverError {
        let kind: Kind
        if error.detail.hasPrefix("missing required key") {
            kind = .missingKey
        } else if error.detail.hasPrefix("unknown key") {
            kind = .unknownKey
        } else {
            kind = .invalidValue
        }
        return DriverError(kind, at: error.pointer, error.detail)
    }

    /// Wraps a shape error found in a response line (runner side).
    /// - Parameter error: the reader's error.
    /// - Returns: a `badResponse` error at the same pointer.
    static func response(_ error: WireError) -> DriverError {
        DriverError(.badResponse, at: error.pointer, error.detail)
    }
}
