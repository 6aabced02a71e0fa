import Dispatch
import Synchronization

/// A one-shot event: set once by one side, awaited by any number of others, from tasks or from
/// threads, with or without a timeout. It replaces sleep-and-poll loops over a flag.
final class Latch: Sendable {
    private struct State {
        var isSet = false
        var tasks: [Int: CheckedContinuation<Void, Never>] = [:]
        var threads: [DispatchSemaphore] = []
        var nextToken = 0
    }

    private let state = Mutex(State())

    /// Whether it was set.
    var isSet: Bool { state.withLock { $0.isSet } }

    /// Sets it and wakes every waiter; setting it again does nothing.
    func set() {
        let (tasks, threads) = state.withLock { state -> ([CheckedContinuation<Void, Never>], [DispatchSemaphore]) in
            guard !state.isSet else { return ([], []) }
            state.isSet = true
            defer {
                state.tasks = [:]
                state.threads = []
            }
            return (Array(state.tasks.values), state.threads)
        }
        for task in tasks { task.resume() }
        for thread in threads { thread.signal() }
    }

    /// Waits until it is set or the task is cancelled.
    func wait() async {
        let token = state.withLock { state -> Int in
            state.nextToken += 1
            return state.nextToken
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let now = state.withLock { state -> Bool in
                    if state.isSet || Task.isCancelled { return true }
                    state.tasks[token] = continuation
                    return false
                }
                if now { continuation.resume() }
            }
        } onCancel: {
            state.withLock { $0.tasks.removeValue(forKey: token) }?.resume()
        }
    }

    /// Waits until it is set, at most `timeout`.
    /// - Returns: whether it was set.
    @discardableResult
    func wait(timeout: Duration) async -> Bool {
        await withTaskGroup(of: Void.self) { group in
            group.addTask { await self.wait() }
            group.addTask { try? await Task.sleep(for: timeout) }
            await group.next()
            group.cancelAll()
        }
        return isSet
    }

    /// Blocks the calling thread (never a pool thread) until it is set, at most `timeout`.
    /// - Returns: whether it was set.
    @discardableResult
    func block(timeout: Duration) -> Bool {
        let semaphore = DispatchSemaphore(value: 0)
        let already = state.withLock { state -> Bool in
            if !state.isSet { state.threads.append(semaphore) }
            return state.isSet
        }
        if already { return true }
        let (seconds, attoseconds) = timeout.components
        let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
        _ = semaphore.wait(timeout: .now() + .nanoseconds(nanoseconds))
        return isSet
    }
}
