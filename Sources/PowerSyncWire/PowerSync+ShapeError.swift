import JSON

extension PowerSync {
    /// A PowerSync message that breaks the shape the service and SDK code give it, with the JSON
    /// pointer of the offending value (a PS-SHAPE finding). The same `PointedError` shape as
    /// KizunaSync's `WireError`, with PowerSync's own kinds.
    public typealias ShapeError = PointedError<ShapeErrorKind>
}

extension PowerSync {
    /// What kind of problem a `PowerSync.ShapeError` is; compare with the static kinds, e.g.
    /// `error.kind == .unknownLine`.
    ///
    /// PowerSync names no error codes for these, so the codes are Accord's own (`PS_…`).
    public struct ShapeErrorKind: PointedErrorKind {
        fileprivate enum Code: String, Sendable, Hashable {
            case malformedLine, unknownLine, unknownOp, malformedRequest, malformedAnswer
        }
        fileprivate let code: Code

        /// A sync-stream line whose members have the wrong shape (missing, unknown or mistyped keys,
        /// an op id or checksum out of range).
        public static let malformedLine = Self(code: .malformedLine)
        /// A sync-stream line that is not exactly one of the six line kinds.
        public static let unknownLine = Self(code: .unknownLine)
        /// An op outside PUT | REMOVE | MOVE | CLEAR.
        public static let unknownOp = Self(code: .unknownOp)
        /// A sync-stream, write-checkpoint or checkpoint-request request with the wrong shape.
        public static let malformedRequest = Self(code: .malformedRequest)
        /// A write-checkpoint or checkpoint-request answer with the wrong shape.
        public static let malformedAnswer = Self(code: .malformedAnswer)

        /// Accord's code for the kind, e.g. "PS_UNKNOWN_LINE".
        public var protocolCode: String {
            switch code {
            case .malformedLine: "PS_MALFORMED_LINE"
            case .unknownLine: "PS_UNKNOWN_LINE"
            case .unknownOp: "PS_UNKNOWN_OP"
            case .malformedRequest: "PS_MALFORMED_REQUEST"
            case .malformedAnswer: "PS_MALFORMED_ANSWER"
            }
        }

        /// A short name for the kind, e.g. "unknownLine".
        public var description: String { code.rawValue }
    }
}
