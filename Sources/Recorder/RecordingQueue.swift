import Dispatch
import Foundation
import HTTP
import Synchronization

/// What a connection saw of one exchange, handed on to be recorded.
struct ExchangeCapture: Sendable {
    var request: HTTPRequest
    var status: Int
    var headers: [(name: String, value: String)]
    var body: [UInt8]
    var total: Int
    var note: String?
    var begin: ContinuousClock.Instant
    var duration: Duration
    /// Whether the answer stopped before its end (an upstream failure mid-body, a client gone):
    /// its body is then a prefix, however much of it was recorded.
    var cut = false
    /// For a sync stream's answer: when each recorded piece of the body arrived.
    var arrivals: [Arrival] = []

    /// A piece of the body: the recorded byte count once it arrived, and when.
    struct Arrival: Sendable {
        var end: Int
        var at: ContinuousClock.Instant
    }

    /// The bytes it holds, for the queue's budget.
    var size: Int { request.body.count + body.count + 1024 }
}

/// Records exchanges on a thread of its own, so a connection goes on to its next request while
/// its last exchange is redacted, serialized and written. Bounded: a connection waits when the
/// exchanges waiting hold more than `budget` bytes (a bound of its own beside the connections'
/// `BufferBudget`). A large exchange's memory goes back to the kernel once it is recorded.
final class RecordingQueue: Sendable {
    private struct State {
        var items: [ExchangeCapture] = []
        var bytes = 0
        var stopping = false
    }

    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let room = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)
    private let budget: Int

    /// A queue that holds at most `budget` bytes of exchanges.
    init(budget: Int) { self.budget = budget }

    /// From this size an exchange's memory is given back to the kernel once it is recorded
    /// (`HeapSettings.releaseFreedMemory()`): ordinary pushes and pulls stay far below it.
    static var releaseSize: Int { 2 << 20 }

    /// Starts the recording thread.
    func start(_ process: @escaping @Sendable (ExchangeCapture) -> Void) {
        let thread = Thread { [self] in run(process) }
        thread.name = "accord-recorder"
        thread.start()
    }

    /// Queues an exchange, waiting while the queue is over its budget.
    func submit(_ capture: ExchangeCapture) {
        while true {
            let queued = state.withLock { state in
                guard state.bytes == 0 || state.bytes + capture.size <= budget else { return false }
                state.items.append(capture)
                state.bytes += capture.size
                return true
            }
            if queued { break }
            _ = room.wait(timeout: .now() + .milliseconds(5))
        }
        wake.signal()
    }

    /// Records what is queued, then stops the thread.
    func drain() {
        let first = state.withLock { state in
            defer { state.stopping = true }
            return !state.stopping
        }
        guard first else { return }
        wake.signal()
        stopped.wait()
    }

    private func run(_ process: @Sendable (ExchangeCapture) -> Void) {
        while true {
            wake.wait()
            // One at a time, so that each exchange is freed as soon as its line is written.
            while let item = state.withLock({ $0.items.isEmpty ? nil : $0.items.removeFirst() }) {
                let size = item.size
                process(item)
                state.withLock { $0.bytes -= size }
                room.signal()
                if size >= Self.releaseSize { HeapSettings.releaseFreedMemory() }
            }
            if state.withLock({ $0.stopping && $0.items.isEmpty }) {
                stopped.signal()
                return
            }
        }
    }
}
