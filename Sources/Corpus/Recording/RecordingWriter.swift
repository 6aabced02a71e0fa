import Dispatch
import Foundation
import KizunaWire
import Synchronization

/// Appends a recording as JSON Lines, in order, for many writers at once. Each exchange is
/// queued; a writer thread takes everything queued, numbers it (strictly increasing in file
/// order) and writes it with one `write`; a sync thread follows with `fsync` whenever there is
/// unsynced data (group commit). A crash can tear only the last line, which the reader
/// tolerates. An `append` that waited for `.written` survives the process being killed; one
/// that waited for `.synced` survives the machine losing power.
public final class RecordingWriter: Sendable {
    /// What `append` waits for before it returns.
    public enum Durability: Sendable {
        /// Only the queueing: the line is written moments later.
        case queued
        /// The line is in the file (the kernel's page cache): safe from a process crash.
        case written
        /// The line is synced to the disk: safe from a power loss.
        case synced
    }

    private struct Entry {
        var tail: [UInt8]
        var done: DispatchSemaphore?
        var synced: Bool
    }

    private struct State {
        var queue: [Entry] = []
        var closing = false
        var written = 0
        var dirty = false
        var syncerStopping = false
        var error: RecordingWriteError?
    }

    /// The file written.
    public let path: String
    private let fd: Int32
    private let state = Mutex(State())
    private let wake = DispatchSemaphore(value: 0)
    private let syncWake = DispatchSemaphore(value: 0)
    private let syncerStopped = DispatchSemaphore(value: 0)
    private let stopped = DispatchSemaphore(value: 0)

    /// Creates the file (it must not exist, or be empty), writes and syncs the header line, and
    /// starts the writer and sync threads.
    /// - Parameters:
    ///   - path: the file.
    ///   - header: the header line.
    /// - Throws: `RecordingWriteError` when the file exists with content or cannot be written.
    public init(path: String, header: RecordingHeader) throws(RecordingWriteError) {
        self.path = path
        let fd = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw .create(path, String(cString: strerror(errno))) }
        var status = stat()
        if fstat(fd, &status) == 0, status.st_size > 0 {
            Glibc.close(fd)
            throw .create(path, "the file exists and is not empty (choose another file or remove it)")
        }
        self.fd = fd
        var line: [UInt8] = []
        CanonicalJSON.writeCompact(header.json, into: &line)
        line.append(0x0A)
        if let reason = Self.writeAll(fd, line) ?? (fsync(fd) == 0 ? nil : String(cString: strerror(errno))) {
            Glibc.close(fd)
            throw .write(path, reason)
        }
        let writer = Thread { [self] in run() }
        writer.name = "accord-recording-writer"
        writer.start()
        let syncer = Thread { [self] in sync() }
        syncer.name = "accord-recording-sync"
        syncer.start()
    }

    /// The exchanges written so far.
    public var written: Int { state.withLock { $0.written } }

    /// The first write failure, if any; later exchanges are dropped.
    public var failure: RecordingWriteError? { state.withLock { $0.error } }

    /// Queues an exchange; its number is assigned at write time, in file order.
    /// - Parameters:
    ///   - exchange: the exchange (its `number` is ignored).
    ///   - durability: what to wait for before returning.
    /// - Returns: false when the recording is closed or failed (then nothing is written).
    @discardableResult
    public func append(_ exchange: RecordedExchange, durability: Durability = .written) -> Bool {
        var object = JSONObject()
        if case .object(let whole) = exchange.json { object = whole }
        object.members.removeAll { $0.key == "exchange" }
        var tail: [UInt8] = []
        CanonicalJSON.writeCompact(.object(object), into: &tail, sortingKeys: false)
        let done = durability == .queued ? nil : DispatchSemaphore(value: 0)
        let accepted = state.withLock { state in
            guard !state.closing, state.error == nil else { return false }
            state.queue.append(Entry(tail: tail, done: done, synced: durability == .synced))
            return true
        }
        guard accepted else { return false }
        wake.signal()
        done?.wait()
        return state.withLock { $0.error == nil }
    }

    /// Writes what is queued, syncs, stops the threads and closes the file. Call once every
    /// `append` has returned; later appends are refused.
    public func close() {
        let first = state.withLock { state in
            defer { state.closing = true }
            return !state.closing
        }
        guard first else { return }
        wake.signal()
        stopped.wait()
    }

    private func run() {
        var buffer: [UInt8] = []
        while true {
            wake.wait()
            let (batch, closing, first) = state.withLock { state in
                defer { state.queue.removeAll(keepingCapacity: true) }
                return (state.queue, state.closing, state.written + 1)
            }
            if !batch.isEmpty {
                buffer.removeAll(keepingCapacity: true)
                for (offset, entry) in batch.enumerated() {
                    buffer.append(contentsOf: "{\"exchange\":\(first + offset),".utf8)
                    buffer.append(contentsOf: entry.tail.dropFirst())
                    buffer.append(0x0A)
                }
                var failure = Self.writeAll(fd, buffer)
                if failure == nil, batch.contains(where: \.synced), fsync(fd) != 0 { failure = String(cString: strerror(errno)) }
                let signalSyncer = state.withLock { state in
                    if let failure, state.error == nil { state.error = .write(path, failure) }
                    guard failure == nil else { return false }
                    state.written += batch.count
                    defer { state.dirty = true }
                    return !state.dirty
                }
                if signalSyncer { syncWake.signal() }
                for entry in batch { entry.done?.signal() }
            }
            if closing && state.withLock({ $0.queue.isEmpty }) {
                state.withLock { $0.syncerStopping = true }
                syncWake.signal()
                syncerStopped.wait()
                _ = fsync(fd)
                Glibc.close(fd)
                stopped.signal()
                return
            }
        }
    }

    /// Syncs the file whenever the writer left unsynced lines, until the writer stops it.
    private func sync() {
        while true {
            syncWake.wait()
            let (dirty, stopping) = state.withLock { state in
                defer { state.dirty = false }
                return (state.dirty, state.syncerStopping)
            }
            if dirty && fsync(fd) != 0 {
                let reason = String(cString: strerror(errno))
                state.withLock { state in
                    if state.error == nil { state.error = .write(path, reason) }
                }
            }
            if stopping {
                syncerStopped.signal()
                return
            }
        }
    }

    /// Writes every byte; the error text on failure.
    private static func writeAll(_ fd: Int32, _ bytes: [UInt8]) -> String? {
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress.map { $0 + offset }, bytes.count - offset) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return String(cString: strerror(errno)) }
            offset += count
        }
        return nil
    }
}
