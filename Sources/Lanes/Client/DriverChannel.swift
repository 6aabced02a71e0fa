import AccordDriver
import Foundation
import Harness
import Synchronization

/// What the runner saw while waiting for a driver's answer line.
public enum DriverLineEvent: Sendable, Hashable {
    /// A line, without its line end.
    case line([UInt8])
    /// The driver closed its standard output (it exited or crashed).
    case ended
    /// Nothing arrived in time.
    case timedOut
    /// A line longer than the runner reads (`LineSplitter.limit`); its bytes were dropped.
    case tooLong(limit: Int)
}

/// One running driver the client lane talks to: a child process, or an engine in this process for tests.
public protocol DriverChannel: Sendable {
    /// Sends one request line (its newline included).
    /// - Parameters:
    ///   - line: the bytes to write.
    ///   - timeout: how long the driver may take to read it before it is killed.
    func send(_ line: [UInt8], timeout: Duration) async

    /// Waits for the next answer line.
    /// - Parameter timeout: how long to wait.
    /// - Returns: the line, the end of output, or a timeout.
    func nextLine(timeout: Duration) async -> DriverLineEvent

    /// Closes the driver's input (EOF) and waits for it to exit.
    /// - Parameter timeout: how long to wait before killing it.
    /// - Returns: a description of how it ended when that was not a clean exit with status 0, else nil.
    func finish(timeout: Duration) async -> String?

    /// Kills the driver at once (SIGKILL for a process).
    func kill() async

    /// The last lines the driver wrote to standard error, for the report.
    var stderrTail: String { get }

    /// How the driver ended, once it has; nil while it runs, and for an engine in this process.
    var ending: DriverEnding? { get }

    /// The process group the driver runs in (the storage-fault matrix switches libfiu's failure
    /// points in its members); nil for an engine in this process.
    var processGroup: Int32? { get }
}

extension DriverChannel {
    /// No process group: an engine in this process.
    public var processGroup: Int32? { nil }
}

/// Starts a fresh driver for one case.
public typealias DriverLauncher = @Sendable () throws(RunError) -> any DriverChannel

/// Answer lines handed from a reader to the one waiting consumer, with timeouts.
package final class LineQueue: Sendable {
    private struct State {
        var lines: [DriverLineEvent] = []
        var ended = false
        var waiter: (token: Int, continuation: CheckedContinuation<DriverLineEvent, Never>)?
        var timer: Task<Void, Never>?
        var nextToken = 0

        /// Takes the waiter, cancelling its timer.
        mutating func takeWaiter() -> CheckedContinuation<DriverLineEvent, Never>? {
            defer {
                waiter = nil
                timer?.cancel()
                timer = nil
            }
            return waiter?.continuation
        }
    }

    private let state = Mutex(State())

    /// Makes an empty queue.
    package init() {}

    /// Adds a line (or a line too long to keep); wakes the waiter if there is one.
    func push(_ line: DriverLineEvent) {
        let waiter = state.withLock { state -> CheckedContinuation<DriverLineEvent, Never>? in
            if let waiter = state.takeWaiter() { return waiter }
            state.lines.append(line)
            return nil
        }
        waiter?.resume(returning: line)
    }

    /// Marks the end of output; wakes the waiter if there is one.
    func end() {
        let waiter = state.withLock { state -> CheckedContinuation<DriverLineEvent, Never>? in
            state.ended = true
            return state.takeWaiter()
        }
        waiter?.resume(returning: .ended)
    }

    /// The next line, the end, or a timeout.
    package func next(timeout: Duration) async -> DriverLineEvent {
        await withCheckedContinuation { (continuation: CheckedContinuation<DriverLineEvent, Never>) in
            let (ready, token) = state.withLock { state -> (DriverLineEvent?, Int) in
                if !state.lines.isEmpty { return (state.lines.removeFirst(), 0) }
                if state.ended { return (.ended, 0) }
                state.nextToken += 1
                state.waiter = (state.nextToken, continuation)
                return (nil, state.nextToken)
            }
            if let ready {
                continuation.resume(returning: ready)
                return
            }
            let timer = Task {
                try? await Task.sleep(for: timeout)
                if Task.isCancelled { return }
                let expired = self.state.withLock { state -> CheckedContinuation<DriverLineEvent, Never>? in
                    guard let waiter = state.waiter, waiter.token == token else { return nil }
                    state.waiter = nil
                    state.timer = nil
                    return waiter.continuation
                }
                expired?.resume(returning: .timedOut)
            }
            state.withLock { state in
                if state.waiter?.token == token { state.timer = timer } else { timer.cancel() }
            }
        }
    }
}

/// Splits a byte stream into lines (LF, an optional CR before it dropped) and feeds a queue. A
/// line longer than `limit` is not kept: its bytes are dropped up to its end and it is handed on
/// as `.tooLong`, so a driver that writes a gigabyte without a newline costs neither the memory
/// nor a rescan of what was already searched.
package struct LineSplitter {
    /// The longest answer line the runner reads: four times the 16 MiB request lines a driver
    /// must take (docs/driver-protocol.md §2).
    package static let limit = 64 * 1024 * 1024
    private let limit: Int
    private var buffer: [UInt8] = []
    /// How far `buffer` is known to hold no newline.
    private var searched = 0
    /// Dropping the rest of a line that went over the limit.
    private var skipping = false

    /// Makes a splitter with nothing buffered.
    package init(limit: Int = LineSplitter.limit) { self.limit = limit }

    /// Appends bytes and pushes every whole line.
    package mutating func feed(_ bytes: some Collection<UInt8>, into queue: LineQueue) {
        var rest = Array(bytes)[...]
        while !rest.isEmpty {
            if skipping {
                guard let newline = Self.newline(in: rest, from: rest.startIndex) else { return }
                skipping = false
                rest = rest[(newline + 1)...]
                continue
            }
            buffer.append(contentsOf: rest)
            rest = rest[rest.endIndex...]
            var start = 0
            while let newline = Self.newline(in: buffer[...], from: searched) {
                var end = newline
                if end > start && buffer[end - 1] == 0x0D { end -= 1 }
                queue.push(end - start > limit ? .tooLong(limit: limit) : .line(Array(buffer[start..<end])))
                start = newline + 1
                searched = start
            }
            buffer.removeFirst(start)
            searched = buffer.count
            if buffer.count > limit {
                queue.push(.tooLong(limit: limit))
                buffer = []
                searched = 0
                skipping = true
            }
        }
    }

    /// The index of the first LF at or after `from`, found with memchr(3): a driver's megabytes
    /// are searched at memory speed, not a byte at a time.
    private static func newline(in bytes: ArraySlice<UInt8>, from: Int) -> Int? {
        guard from < bytes.endIndex else { return nil }
        return bytes[from...].withUnsafeBytes { (buffer: UnsafeRawBufferPointer) -> Int? in
            guard let base = buffer.baseAddress, let found = memchr(base, 0x0A, buffer.count) else { return nil }
            return from + (UnsafeRawPointer(found) - base)
        }
    }

    /// Pushes what is left as a last line and ends the queue.
    package mutating func finish(into queue: LineQueue) {
        if !buffer.isEmpty { queue.push(.line(buffer)) }
        buffer = []
        searched = 0
        queue.end()
    }
}
