import KizunaWire

/// An error code of the KizunaSync engine catalog (spec/engine-errors.json), e.g.
/// `SOFT_DELETE_VIOLATION`; any upper-case code outside the `DRIVER_` namespace is accepted so
/// that a newer catalog needs no driver change.
public struct EngineErrorCode: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
    /// The code text.
    public let rawValue: String

    /// Accepts a code spelled `[A-Z][A-Z0-9_]*` that does not start with `DRIVER_`.
    public init?(rawValue: String) {
        guard EngineErrorCode.isCode(rawValue), !rawValue.hasPrefix("DRIVER_") else { return nil }
        self.rawValue = rawValue
    }

    private init(known: String) { self.rawValue = known }

    /// True when `text` is spelled like an error code: `[A-Z][A-Z0-9_]*`.
    /// - Returns: whether it is code-shaped.
    public static func isCode(_ text: String) -> Bool {
        guard let first = text.utf8.first, first >= 0x41 && first <= 0x5A else { return false }
        return text.utf8.allSatisfy { ($0 >= 0x41 && $0 <= 0x5A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == UInt8(ascii: "_") }
    }

    /// The code text.
    public var description: String { rawValue }

    /// A hard delete refused on a soft-delete table.
    public static let softDeleteViolation = EngineErrorCode(known: "SOFT_DELETE_VIOLATION")
    /// A local write that breaks a local constraint (key columns, duplicate key or mutation id).
    public static let localConstraint = EngineErrorCode(known: "LOCAL_CONSTRAINT")
    /// A local construct the engine cannot answer.
    public static let localUnsupported = EngineErrorCode(known: "LOCAL_UNSUPPORTED")
    /// A mutation or bucket names a table absent from the configuration.
    public static let unknownTable = EngineErrorCode(known: "UNKNOWN_TABLE")
    /// An op outside insert, update and delete.
    public static let unknownOp = EngineErrorCode(known: "UNKNOWN_OP")
    /// A transient remote or transport fault.
    public static let remote = EngineErrorCode(known: "REMOTE")
    /// A remote fault the server definitively rejects on replay.
    public static let permanentTransport = EngineErrorCode(known: "PERMANENT_TRANSPORT")
    /// A push response that contradicts its request.
    public static let malformedPushResponse = EngineErrorCode(known: "MALFORMED_PUSH_RESPONSE")
    /// Verdicts that do not match the pushed mutations.
    public static let verdictBijection = EngineErrorCode(known: "VERDICT_BIJECTION")
    /// An abort naming an offender outside the batch.
    public static let unknownBatchOffender = EngineErrorCode(known: "UNKNOWN_BATCH_OFFENDER")
    /// A verdict kind or reason outside the closed union.
    public static let unknownVerdictReason = EngineErrorCode(known: "UNKNOWN_VERDICT_REASON")
    /// A signal type the engine does not recognise.
    public static let unknownSignal = EngineErrorCode(known: "UNKNOWN_SIGNAL")
    /// A payload that failed to serialize or deserialize.
    public static let json = EngineErrorCode(known: "JSON")
    /// A local store operation failed.
    public static let store = EngineErrorCode(known: "STORE")
    /// The local store is held by another context; retry.
    public static let storeBusy = EngineErrorCode(known: "STORE_BUSY")
    /// No persistent local store is available.
    public static let storeUnavailable = EngineErrorCode(known: "STORE_UNAVAILABLE")
    /// No engine can take this call on this runtime.
    public static let engineUnavailable = EngineErrorCode(known: "ENGINE_UNAVAILABLE")
    /// The engine refused its configuration.
    public static let configInvalid = EngineErrorCode(known: "CONFIG_INVALID")
    /// A pull ran before the bucket params were set.
    public static let bucketUnset = EngineErrorCode(known: "BUCKET_UNSET")
    /// PowerSync (§11): the backend refused an upload; the entries stay queued.
    public static let upload = EngineErrorCode(known: "UPLOAD")
    /// PowerSync: the sync stream answered an error status.
    public static let download = EngineErrorCode(known: "DOWNLOAD")
    /// PowerSync: the op needs the service and the client is disconnected.
    public static let disconnected = EngineErrorCode(known: "DISCONNECTED")
    /// PowerSync: a wait names a checkpoint request the client does not hold.
    public static let unknownRequest = EngineErrorCode(known: "UNKNOWN_REQUEST")
    /// PowerSync: the app requested a checkpoint from a client attached in legacy checkpoint mode.
    public static let requestsOff = EngineErrorCode(known: "REQUESTS_OFF")
}

/// An engine failure carrying a catalog code; a `KizunaSync.EngineDriver` throws it and the driver
/// loop answers `{"error":{"code":…,"message":…}}`.
public struct EngineError: Error, CustomStringConvertible, Sendable, Hashable {
    /// The catalog code.
    public let code: EngineErrorCode
    /// What happened, for people.
    public let message: String

    /// Makes an engine error.
    public init(_ code: EngineErrorCode, _ message: String) {
        self.code = code
        self.message = message
    }

    /// Carries a wire-validation error under its protocol code (e.g. VERDICT_BIJECTION).
    /// - Parameter error: the wire error.
    public init(_ error: WireError) {
        self.code = EngineErrorCode(rawValue: error.protocolCode) ?? .json
        self.message = error.description
    }

    /// "SOFT_DELETE_VIOLATION: …".
    public var description: String { "\(code.rawValue): \(message)" }
}
