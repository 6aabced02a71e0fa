/// A wire message that breaks the protocol's schemas or closed sets, with the protocol's
/// error code and the JSON pointer of the offending value.
public struct WireError: Error, CustomStringConvertible, Sendable, Hashable {
    /// What kind of problem this is; compare with the static kinds, e.g. `error.kind == .unknownSignal`.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        fileprivate enum Code: String, Sendable, Hashable {
            case json, malformedPushResponse, malformedPullResponse, malformedRequest, malformedCursor
            case verdictBijection, unknownVerdictKind, unknownVerdictReason, unknownBatchOffender
            case unknownSignal, unknownOp
        }
        fileprivate let code: Code

        /// The body is not JSON, or not the JSON type a message needs.
        public static let json = Kind(code: .json)
        /// A push response whose shape breaks push-response.schema.json.
        public static let malformedPushResponse = Kind(code: .malformedPushResponse)
        /// A pull response whose shape breaks pull-response.schema.json.
        public static let malformedPullResponse = Kind(code: .malformedPullResponse)
        /// A request whose shape breaks its request schema.
        public static let malformedRequest = Kind(code: .malformedRequest)
        /// A cursor token that is not canonical token text.
        public static let malformedCursor = Kind(code: .malformedCursor)
        /// Verdicts that do not match the pushed mutations one to one, in order.
        public static let verdictBijection = Kind(code: .verdictBijection)
        /// A verdict kind outside applied | rejected.
        public static let unknownVerdictKind = Kind(code: .unknownVerdictKind)
        /// A rejection reason outside the closed six.
        public static let unknownVerdictReason = Kind(code: .unknownVerdictReason)
        /// An abort naming an offender that is not in the batch.
        public static let unknownBatchOffender = Kind(code: .unknownBatchOffender)
        /// A signal type outside the closed set (or not allowed where it appears).
        public static let unknownSignal = Kind(code: .unknownSignal)
        /// A mutation op outside insert | update | delete.
        public static let unknownOp = Kind(code: .unknownOp)

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

    /// The protocol's error code for this error.
    public var protocolCode: String { kind.protocolCode }

    /// "UNKNOWN_SIGNAL at /signal/type: …".
    public var description: String {
        "\(protocolCode) at \(pointer.description.isEmpty ? "/" : pointer.description): \(detail)"
    }

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
