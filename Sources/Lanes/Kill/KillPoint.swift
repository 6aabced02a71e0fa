import Corpus
import KizunaWire

/// A named instant of the kill matrix (docs/kill-matrix.md): where in a case the runner SIGKILLs
/// the driver, restarts it on the same store, and checks that the durable state is consistent.
/// The matrix plays each point at the first step it reaches (`target(in:)`); `accord explore`
/// may pick a later one (`targets(in:)`), except where a driver's hook fires at the first.
public enum KillPoint: KebabNamed {
    /// Right after the answer to the case's first accepted `write` (or, with the hook, after its
    /// row change is durable and before the answer).
    case afterLocalWrite
    /// When the mock has received the first push request, before any answer: the answer is lost.
    case afterPushSent
    /// When the mock has handed over the whole answer to the first answered push, before the
    /// driver reports it (a race for a generic driver; exact with the hook).
    case afterPushAnswered
    /// Right after the answer to the first `pull` that staged a `has_more:true` page.
    case betweenPages
    /// When the mock has handed over the first closing page, before the driver reports it (a race
    /// for a generic driver; with the hook, before its rows are committed).
    case beforeClosingCommit
    /// Right after the driver answers the first step whose response latches RESET_REQUIRED.
    case softBlock
    /// After the first accepted `write`: the store is reopened under another user and client,
    /// then under its own identity again.
    case identityChange

    /// The driver hook a cooperating driver can be asked to die at for this point (`ACCORD_KILL_AT`),
    /// or nil when the runner kills from outside only.
    public var driverHook: KillHook? {
        switch self {
        case .afterLocalWrite: .afterLocalWrite
        case .afterPushAnswered: .afterPushAnswered
        case .beforeClosingCommit: .beforeClosingCommit
        default: nil
        }
    }

    /// Whether a cooperating driver can be asked to die at the exact seam (`ACCORD_KILL_AT`).
    public var hasDriverHook: Bool { driverHook != nil }

    /// The step of a transcript this point kills at, or nil when the case never reaches it. An
    /// exchange another client makes (a `caller` naming another user or client) is the server
    /// lane's: the driver never sees it, so it is no kill target (a hooked driver would die at
    /// the first exchange of its own instead, unexpected).
    /// - Returns: the step number.
    public func target(in transcript: Transcript) -> Int? { targets(in: transcript).first }

    /// Every step of a transcript this point could kill at, in order (`accord explore` picks one).
    /// - Returns: the step numbers.
    public func targets(in transcript: Transcript) -> [Int] {
        transcript.steps.compactMap { step in
            switch (self, step.action) {
            case (.afterLocalWrite, .local(let local)), (.identityChange, .local(let local)):
                local.expectError == nil ? step.n : nil
            case (_, .rpc(let exchange)) where exchange.expectError == nil && !exchange.isAnotherClient(than: transcript.context):
                matches(exchange) ? step.n : nil
            default:
                nil
            }
        }
    }

    private func matches(_ exchange: RPCExchange) -> Bool {
        let signal = exchange.response["signal"]?["type"]?.stringValue
        let hasMore = exchange.response["has_more"] == .bool(true)
        switch self {
        case .afterPushSent: return exchange.rpc == .push
        case .afterPushAnswered: return exchange.rpc == .push && exchange.isAnswer && signal == nil
        case .betweenPages: return exchange.rpc == .pull && exchange.isAnswer && signal == nil && hasMore
        case .beforeClosingCommit: return exchange.rpc == .pull && exchange.isAnswer && signal == nil && !hasMore
        case .softBlock: return exchange.isAnswer && signal == "RESET_REQUIRED"
        case .afterLocalWrite, .identityChange: return false
        }
    }
}
