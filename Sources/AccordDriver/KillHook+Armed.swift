import Corpus
import Foundation

extension KillHook {
    /// The hook this driver process dies at, read once from `ACCORD_KILL_AT`; nil when none is armed.
    public static let armed: KillHook? = ProcessInfo.processInfo.environment[environmentVariable].flatMap(KillHook.init(rawValue:))

    /// Dies at once (SIGKILL to this process) when `hook` is the armed one; returns otherwise. A Swift
    /// engine calls it at each of its seams to honour the kill matrix's driver hook.
    /// - Parameter hook: the seam reached.
    public static func reached(_ hook: KillHook) {
        guard armed == hook else { return }
        kill(getpid(), SIGKILL)
    }
}
