import Corpus
import JSON
import KizunaWire
import PowerSyncWire

/// Capability names a driver may announce in its hello answer.
public enum DriverCapability {
    /// The engine applies field transforms (increment, arrayUnion, arrayRemove) on writes.
    public static let transforms = "transforms"
    /// The engine accepts atomic groups and pushes their runs as atomic batches.
    public static let atomic = "atomic"
    /// The engine honours `soft_delete_column` and refuses hard deletes with SOFT_DELETE_VIOLATION.
    public static let softDelete = "soft-delete"
    /// The store survives the driver process being killed at any point and reopened.
    public static let killSafe = "kill-safe"
}

/// The parts of the protocol a driver may declare in `hello`'s `parts` (§5.1): the ops it plays
/// and the transport faults it takes. A driver that declares no `parts` plays them all.
public enum DriverPart {
    /// Local writes (`write`).
    public static let write = "write"
    /// Pushes of the outbox (`push`), named as the transcript's RPC.
    public static let push = RPCKind.push.rawValue
    /// Pulls (`pull`), named as the transcript's RPC.
    public static let pull = RPCKind.pull.rawValue
    /// Every part, in the order a reason names them; faults are named by the transcript's fault
    /// kinds (`drop-ack`, `transport-error`), so a new kind is a part at once.
    public static let all = [write, push, pull] + TransportFault.Kind.allCases.map(\.rawValue)
}

/// The hello answer: who the driver is and what it can do.
public struct HelloResult: Sendable, Hashable {
    /// The engine's name, e.g. "accord-reference-client".
    public var name: String
    /// The engine's version.
    public var version: String
    /// The capabilities, e.g. `[DriverCapability.transforms, DriverCapability.atomic]`.
    public var capabilities: [String]
    /// The protocol version the driver speaks.
    public var protocolVersion: String
    /// The sync protocol the driver's engine speaks (§11): KizunaSync unless it says
    /// `"profile": "powersync"`; a KizunaSync driver's hello carries no `profile`.
    public var profile: CorpusProfile = .kizunaSync
    /// The parts of the protocol the driver plays (`DriverPart`); nil when it declares none,
    /// which means every part.
    public var parts: [String]?

    /// Makes a hello answer.
    public init(name: String, version: String, capabilities: [String], protocolVersion: String = DriverRequest.protocolVersion) {
        self.name = name
        self.version = version
        self.capabilities = capabilities
        self.protocolVersion = protocolVersion
    }
}

/// The write answer.
public struct WriteResult: Sendable, Hashable {
    /// The outbox depth after the write.
    public var outboxDepth: Int

    /// Makes a write answer.
    public init(outboxDepth: Int) { self.outboxDepth = outboxDepth }
}

/// What one pushOnce did.
public enum PushOutcome: String, Sendable, Hashable, CaseIterable {
    /// A push request was sent and its response handled.
    case sent
    /// The outbox was empty: no request.
    case nothing
    /// RESET_REQUIRED is latched: no request.
    case blocked
}

/// The push answer.
public struct PushResult: Sendable, Hashable {
    /// What happened.
    public var outcome: PushOutcome
    /// How many mutations the request carried (0 unless `sent`).
    public var mutations: Int
    /// The signal the response carried, if any.
    public var signal: SignalType?

    /// Makes a push answer.
    /// - Parameters:
    ///   - outcome: what happened.
    ///   - mutations: the mutations sent.
    ///   - signal: the response's signal.
    public init(outcome: PushOutcome, mutations: Int = 0, signal: SignalType? = nil) {
        self.outcome = outcome
        self.mutations = mutations
        self.signal = signal
    }
}

/// How a pull ended.
public enum PullOutcome: String, Sendable, Hashable, CaseIterable {
    /// A `has_more:false` page closed the checkpoint and it was committed.
    case closed
    /// `max_pages` pages were read and the checkpoint is still open (staged, invisible).
    case staged
    /// A response carried a signal; staging was handled as the signal requires.
    case signal
    /// RESET_REQUIRED is latched: no request.
    case blocked
}

/// The pull answer.
public struct PullResult: Sendable, Hashable {
    /// How the pull ended.
    public var outcome: PullOutcome
    /// The durably persisted cursor afterwards.
    public var cursor: String
    /// How many pull responses this request consumed.
    public var pages: Int
    /// The signal, when `outcome` is `signal`.
    public var signal: SignalType?

    /// Makes a pull answer.
    /// - Parameters:
    ///   - outcome: how the pull ended.
    ///   - cursor: the persisted cursor.
    ///   - pages: the responses consumed.
    ///   - signal: the signal, if any.
    public init(outcome: PullOutcome, cursor: String, pages: Int, signal: SignalType? = nil) {
        self.outcome = outcome
        self.cursor = cursor
        self.pages = pages
        self.signal = signal
    }
}

/// An event the engine raised (spec/engine-events.json producer names).
public struct EngineEvent: Sendable, Hashable {
    /// The event code, e.g. "MUTATION_REJECTED".
    public var code: String
    /// The mutation the event concerns, if any.
    public var mutationID: String?
    /// Engine-specific details.
    public var data: JSONObject?

    /// Makes an event.
    /// - Parameters:
    ///   - code: the event code.
    ///   - mutationID: the mutation concerned.
    ///   - data: engine-specific details.
    public init(code: String, mutationID: String? = nil, data: JSONObject? = nil) {
        self.code = code
        self.mutationID = mutationID
        self.data = data
    }
}

/// A conflict-journal entry: a rejection, an atomic abort or a dead letter the engine recorded.
public struct JournalEntry: Sendable, Hashable {
    /// The table.
    public var table: String
    /// The row key.
    public var pk: String
    /// The mutation concerned, if any.
    public var mutationID: String?
    /// Why, e.g. "PRECONDITION", "BATCH_ABORTED", "DEAD_LETTER".
    public var reason: String
    /// Engine-specific details.
    public var data: JSONObject?

    /// Makes a journal entry.
    /// - Parameters:
    ///   - table: the table.
    ///   - pk: the row key.
    ///   - mutationID: the mutation concerned.
    ///   - reason: why.
    ///   - data: engine-specific details.
    public init(table: String, pk: String, mutationID: String? = nil, reason: String, data: JSONObject? = nil) {
        self.table = table
        self.pk = pk
        self.mutationID = mutationID
        self.reason = reason
        self.data = data
    }
}

/// The state answer.
public struct StateResult: Sendable, Hashable {
    /// Locally readable rows: table name → row key → columns. Absent rows are absent.
    public var rows: [String: [String: JSONObject]]
    /// The durably persisted cursor.
    public var cursor: String
    /// The number of pending outbox entries.
    public var outboxDepth: Int
    /// Events raised since open, in order.
    public var events: [EngineEvent]
    /// Journal entries, oldest first.
    public var journal: [JournalEntry]

    /// Makes a state answer.
    /// - Parameters:
    ///   - rows: rows by table and key.
    ///   - cursor: the persisted cursor.
    ///   - outboxDepth: the pending outbox entries.
    ///   - events: events since open.
    ///   - journal: journal entries.
    public init(
        rows: [String: [String: JSONObject]], cursor: String, outboxDepth: Int, events: [EngineEvent] = [], journal: [JournalEntry] = []
    ) {
        self.rows = rows
        self.cursor = cursor
        self.outboxDepth = outboxDepth
        self.events = events
        self.journal = journal
    }

    /// The row a `local-row` check reads.
    /// - Returns: the columns, or nil when the row is absent.
    public func row(_ table: String, _ pk: String) -> JSONObject? { rows[table]?[pk] }

    /// Whether two rows are the same, whatever the order of their columns (a driver need not sort
    /// its keys, docs/driver-protocol.md).
    public static func sameRow(_ lhs: JSONObject?, _ rhs: JSONObject?) -> Bool {
        lhs.map { CanonicalJSON.compact(.object($0)) } == rhs.map { CanonicalJSON.compact(.object($0)) }
    }
}

/// A successful answer, by operation.
public enum DriverResult: Sendable, Hashable {
    /// The hello answer.
    case hello(HelloResult)
    /// The store is open.
    case opened
    /// The write was stored with its outbox entry.
    case written(WriteResult)
    /// The push answer.
    case pushed(PushResult)
    /// The pull answer.
    case pulled(PullResult)
    /// The state answer.
    case state(StateResult)
    /// The engine is closed; the driver exits.
    case closed
    /// A PowerSync op's answer (§11).
    case powerSync(PowerSync.OpResult)

    /// The operation this answers.
    public var op: DriverOp {
        switch self {
        case .hello: .hello
        case .opened: .open
        case .written: .write
        case .pushed: .push
        case .pulled: .pull
        case .state: .state
        case .closed: .close
        case .powerSync(let result): result.op
        }
    }
}

/// A failed answer: a catalog code (spec/engine-errors.json) or a `DRIVER_*` code.
public struct DriverFailure: Sendable, Hashable, CustomStringConvertible {
    /// The code, e.g. "SOFT_DELETE_VIOLATION" or "DRIVER_UNKNOWN_KEY".
    public var code: String
    /// What happened, for people.
    public var message: String
    /// The JSON pointer into the request, for `DRIVER_*` shape errors.
    public var pointer: JSONPointer?

    /// Makes a failure.
    /// - Parameters:
    ///   - code: the code.
    ///   - message: what happened.
    ///   - pointer: where in the request, if known.
    public init(code: String, message: String, pointer: JSONPointer? = nil) {
        self.code = code
        self.message = message
        self.pointer = pointer
    }

    /// The failure for a driver-protocol error.
    public init(_ error: DriverError) {
        self.init(code: error.code, message: error.detail, pointer: error.pointer)
    }

    /// The failure for an engine error.
    public init(_ error: EngineError) {
        self.init(code: error.code.rawValue, message: error.message)
    }

    /// True when the code is a driver-protocol code rather than an engine catalog code.
    public var isDriverCode: Bool { code.hasPrefix("DRIVER_") }

    /// "CODE: message".
    public var description: String { "\(code): \(message)" }
}
