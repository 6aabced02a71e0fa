import Corpus
import KizunaWire

/// A named instant of the storage-fault matrix (docs/storage-faults.md): the driver command during
/// which the runner makes the driver's writes, fsyncs and renames fail through libfiu. The matrix
/// plays each point at the first step it reaches; `accord explore` may pick a later one.
public enum StorageFaultPoint: KebabNamed {
    /// The case's first accepted `write`: its commit (row change and outbox entry) fails.
    case localWrite
    /// The first answered push: its writes fail from the start of the `push`, so the push in
    /// flight cannot be made durable before the request goes out.
    case inFlightPush
    /// The same push: the writes fail from the moment the mock has received the request, so the
    /// answer's verdicts cannot be applied.
    case verdictApply
    /// The first pull that stages a `has_more:true` page: the page cannot be staged.
    case stagedPage
    /// The first pull whose page closes the checkpoint: its commit (rows, cursor, rebase) fails.
    case closingCommit
    /// After the first accepted `write`: the store is reopened under another user and client while
    /// its writes fail, then under its own identity again.
    case identityChange

    /// The step of a transcript this point applies to, or nil when the case never reaches it.
    /// - Returns: the step number.
    public func target(in transcript: Transcript) -> Int? {
        kill.target(in: transcript)
    }

    /// Every step of a transcript this point could apply to, in order.
    /// - Returns: the step numbers.
    public func targets(in transcript: Transcript) -> [Int] {
        kill.targets(in: transcript)
    }

    /// The kill point whose step this point shares (the two matrices pick their steps alike).
    var kill: KillPoint {
        switch self {
        case .localWrite: .afterLocalWrite
        case .inFlightPush, .verdictApply: .afterPushAnswered
        case .stagedPage: .betweenPages
        case .closingCommit: .beforeClosingCommit
        case .identityChange: .identityChange
        }
    }

    /// Whether the failures start when the mock has received the step's request (else with the command).
    var armsAtRequest: Bool {
        switch self {
        case .verdictApply, .stagedPage, .closingCommit: true
        case .localWrite, .inFlightPush, .identityChange: false
        }
    }
}

/// How a storage fault is played: which errno the failing calls return, and how the case goes on
/// once the failures are off.
public struct StorageFaultVariant: Sendable, Hashable, CustomStringConvertible {
    /// The errno of every failing call.
    public enum Errno: String, Sendable, CaseIterable, Hashable {
        /// An I/O error (EIO, 5).
        case eio
        /// No space left on the device (ENOSPC, 28).
        case enospc

        /// The number libfiu is given as `failinfo`.
        public var number: Int32 {
            switch self {
            case .eio: 5
            case .enospc: 28
            }
        }
    }

    /// How the case goes on after the fault.
    public enum Continuation: String, Sendable, CaseIterable, Hashable {
        /// In the same driver process.
        case sameProcess = "same-process"
        /// In a fresh driver process on the same store, after `close`.
        case restart
    }

    /// The errno.
    public var errno: Errno
    /// The continuation.
    public var continuation: Continuation

    /// `eio/same-process`, `enospc/restart`, …
    public var description: String { "\(errno.rawValue)/\(continuation.rawValue)" }

    /// Every variant, EIO first, the same process before the restart.
    public static let all: [StorageFaultVariant] = Errno.allCases.flatMap { errno in
        Continuation.allCases.map { StorageFaultVariant(errno: errno, continuation: $0) }
    }
}
