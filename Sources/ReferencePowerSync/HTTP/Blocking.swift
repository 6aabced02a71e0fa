import Dispatch
import Synchronization

/// Runs async work from a connection's own thread (the HTTP server's streaming handler runs
/// there and may block) and waits for its result on a semaphore the work signals: an event,
/// never a poll.
enum Blocking {
    /// Runs `work` and blocks the calling thread (never a pool thread) until it returns.
    /// - Parameter work: the async work.
    /// - Returns: its result.
    static func run<T: Sendable>(_ work: @escaping @Sendable () async -> T) -> T {
        let done = DispatchSemaphore(value: 0)
        let result = Mutex<T?>(nil)
        Task {
            let value = await work()
            result.withLock { $0 = value }
            done.signal()
        }
        done.wait()
        return result.withLock { stored in
            // Set before the signal, so present here.
            stored.take()
        } ?? Blocking.unreachable()
    }

    private static func unreachable<T>() -> T {
        fatalError("Blocking.run: the result is stored before the semaphore is signalled")
    }
}
