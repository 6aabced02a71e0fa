import JSON

/// A wire message that breaks the protocol's schemas or closed sets, with the protocol's
/// error code and the JSON pointer of the offending value.
public typealias WireError = PointedError<WireErrorKind>

/// What kind of problem a `WireError` is; compare with the static kinds, e.g.
/// `error.kind == .unknownSignal`.
public struct WireErrorKind: PointedErrorKind {
    fileprivate enum Code: String, Sendable, Hashable {
        case json, malformedPushResponse, malformedPullResponse, malformedRequest, malformedCursor
        case verdictBijection, unknownVerdictKind, unknownVerdictReason, unknownBatchOffender
        case unknownSignal, unknownOp
    }
    fileprivate let code: Code

    /// The body is not JSON, or not the JSON type a message needs.
    public static let json = Self(code: .json)
    /// A push response whose shape breaks push-response.schema.json.
    public static let malformedPushResponse = Self(code: .malformedPushResponse)
    /// A pull response whose shape breaks pull-response.schema.json.
    public static let malformedPullResponse = Self(code: .malformedPullResponse)
    /// A request whose shape breaks its request schema.
    public static let malformedRequest = Self(code: .malformedRequest)
    /// A cursor token that is not canonical token text.
    public static let malformedCursor = Self(code: .malformedCursor)
    /// Verdicts that do not match the pushed mutations one to one, in order.
    public static let verdictBijection = Self(code: .verdictBijection)
    /// A verdict kind outside applied | rejected.
    public static let unknownVerdictKind = Self(code: .unknownVerdictKind)
    /// A rejection reason outside the closed six.
    public static let unknownVerdictReason = Self(code: .unknownVerdictReason)
    /// An abort naming an offender that is not in the batch.
    public static let unknownBatchOffender = Self(code: .unknownBatchOffender)
    /// A signal type outside the closed set (or not allowed where it appears).
    public static let unknownSignal = Self(code: .unknownSignal)
    /// A mutation op outside insert | update | delete.
    public static let unknownOp = Self(code: .unknownOp)

    /// The protocol's error code (spec/engine-errors.json), e.g. "UNKNOWN_SIGNAL".
    public var protocolCode: String {
        switch code {
        case .json, .malformedPullResponse, .malformedRequest, .malformedCursor: "JSON"
        case .malformedPushResponse, .unknownVerdictKind: "MALFORMED_PUSH_RESPONSE"
        case .verdictBijection: "VERDICT_BIJECTION"
        case .unknownVerdictReason: "UNKNOWN_VERDICT_REASON"
        case .unknownBatchOffender: "UNKNOWN_BATCH_OFFENDER"
        case .unknownSignal: "UNKNOWN_SIGNAL"
        case .unknownOp: "UNKNOWN_OP"
        }
    }

    /// A short name for the kind, e.g. "unknownSignal".
    public var description: String { code.rawValue }
}

extension WireError {
    static func malformedCursor(_ text: String) -> WireError {
        WireError(.malformedCursor, at: .root, "\"\(text)\" is not a canonical cursor token")
    }

    /// The same error with its pointer moved under `prefix`.
    /// - Parameter prefix: the pointer of the enclosing value.
    /// - Returns: the relocated error.
    public func relocated(under prefix: JSONPointer) -> WireError {
        WireError(kind, at: prefix.appending(pointer), detail)
    }
}
