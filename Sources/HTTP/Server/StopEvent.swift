import Dispatch
import Synchronization

/// Something that happens once and is waited for by whoever is stopping: a server has no
/// connection left, an event loop has ended, a command was told to stop. The side that stops
/// calls `signal()`; the side that waits is woken by it (or by its own deadline), never by
/// looking again after a sleep. Once signalled it stays signalled, so a wait that starts late
/// returns at once.
public final class StopEvent: Sendable {
    private typealias Waiter = (continuation: CheckedContinuation<Bool, Never>, timer: Task<Void, Never>?)

    private struct State {
        var happened = false
        var nextID = 0
        /// Async waiters, each with the timer task that ends its wait at its deadline.
        var waiters: [Int: Waiter] = [:]
        /// Threads blocked in `wait()`.
        var blocked: [DispatchSemaphore] = []
    }

    private let state = Mutex(State())

    /// An event that has not happened.
    public init() {}

    /// Whether the event has happened.
    public var happened: Bool { state.withLock { $0.happened } }

    /// Marks the event happened and wakes every waiter; later calls do nothing.
    public func signal() {
        let (waiters, blocked) = state.withLock { state -> ([Waiter], [DispatchSemaphore]) in
            guard !state.happened else { return ([], []) }
            state.happened = true
            defer {
                state.waiters.removeAll()
                state.blocked.removeAll()
            }
            return (Array(state.waiters.values), state.blocked)
        }
        for waiter in waiters {
            waiter.timer?.cancel()
            waiter.continuation.resume(returning: true)
        }
        for thread in blocked { thread.signal() }
    }

    /// Waits, without a thread, until the event happens or `deadline` passes.
    /// - Parameter deadline: when to stop waiting.
    /// - Returns: whether the event happened (false when the deadline came first).
    public func wait(until deadline: ContinuousClock.Instant) async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let id: Int? = state.withLock { state in
                guard !state.happened else { return nil }
                state.nextID += 1
                state.waiters[state.nextID] = (continuation, nil)
                return state.nextID
            }
            guard let id else { return continuation.resume(returning: true) }
            // The deadline is a timer, cancelled by `signal()`; registered after the waiter, so
            // a timer that fires before it is stored still finds the waiter to end.
            let timer = Task {
                try? await Task.sleep(until: deadline, clock: .continuous)
                self.expire(id)
            }
            let stored = state.withLock { state -> Bool in
                guard state.waiters[id] != nil else { return false }
                state.waiters[id]?.timer = timer
                return true
            }
            if !stored { timer.cancel() }
        }
    }

    /// Blocks the calling thread until the event happens (for a synchronous caller, such as a
    /// start that failed half-way and must wait for the threads it started).
    public func wait() {
        let semaphore = DispatchSemaphore(value: 0)
        let waits = state.withLock { state -> Bool in
            guard !state.happened else { return false }
            state.blocked.append(semaphore)
            return true
        }
        if waits { semaphore.wait() }
    }

    /// Ends one waiter's wait at its deadline, if the event has not woken it first.
    private func expire(_ id: Int) {
        let waiter = state.withLock { $0.waiters.removeValue(forKey: id) }
        waiter?.continuation.resume(returning: false)
    }
}
