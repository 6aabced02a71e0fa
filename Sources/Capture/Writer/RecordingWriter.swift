import CLinux
import Corpus
import Dispatch
import Foundation
import JSON
import Synchronization

/// Appends a recording as JSON Lines, in order, for many writers at once. Each `append` numbers
/// its exchange and writes the whole line with one `writev(2)` on the caller's thread, under a
/// lock, so numbers rise strictly in file order and no hand-off to another thread is paid per
/// exchange. A sync thread follows with `fsync(2)` when unsynced lines remain, at most once per
/// `syncInterval`. A crash can tear only the last line, which the reader tolerates. A line
/// whose `append` returned survives the process being killed; with `.synced` it also survives
/// the machine losing power. Disk blocks are reserved a step ahead of the appends, outside the
/// file's size, and given back at `close()`.
public final class RecordingWriter: Sendable {
    /// What `append` waits for before it returns.
    public enum Durability: Sendable {
        /// The caller hands the exchange on and records it later (see `RecordingProxy`); at the
        /// writer it is the same as `.written`.
        case queued
        /// The line is in the file (the kernel's page cache): safe from a process crash.
        case written
        /// The line is synced to the disk: safe from a power loss.
        case synced
    }

    private struct State {
        var closing = false
        var written = 0
        var dirty = false
        var error: RecordingWriteError?
        /// The bytes in the file.
        var size = 0
        /// Where the disk blocks reserved for appends end; `Int.max` once reserving failed.
        var reserved = 0
    }

    /// The file written.
    public let path: String
    /// The longest a written line waits for the background sync.
    public let syncInterval: Duration
    private let fd: Int32
    private let state = Mutex(State())
    private let syncWake = DispatchSemaphore(value: 0)
    private let syncerStopped = DispatchSemaphore(value: 0)

    /// Creates the file (it must not exist, or be empty), writes and syncs the header line, and
    /// starts the sync thread.
    /// - Parameters:
    ///   - path: the file.
    ///   - header: the header line.
    ///   - syncInterval: the longest written lines wait for the background `fsync`.
    /// - Throws: `RecordingWriteError` when the file exists with content or cannot be written.
    public init(path: String, header: RecordingHeader, syncInterval: Duration = .milliseconds(250)) throws(RecordingWriteError) {
        self.path = path
        self.syncInterval = syncInterval
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
        let reason =
            line.withUnsafeBytes { bytes in
                var vector = iovec(iov_base: UnsafeMutableRawPointer(mutating: bytes.baseAddress), iov_len: bytes.count)
                return withUnsafeMutablePointer(to: &vector) { Self.writeAll(fd, UnsafeMutableBufferPointer(start: $0, count: 1)) }
            } ?? (fsync(fd) == 0 ? nil : String(cString: strerror(errno)))
        if let reason {
            Glibc.close(fd)
            throw .write(path, reason)
        }
        // The first append reserves blocks from the header's end.
        state.withLock { state in
            state.size = line.count
            state.reserved = line.count
        }
        let syncer = Thread { [self] in sync() }
        syncer.name = "accord-recording-sync"
        syncer.start()
    }

    /// The exchanges written so far.
    public var written: Int { state.withLock { $0.written } }

    /// The first write failure, if any; later exchanges are dropped.
    public var failure: RecordingWriteError? { state.withLock { $0.error } }

    /// Numbers and writes an exchange; its `number` is assigned here, in file order.
    /// - Parameters:
    ///   - exchange: the exchange (its `number` is ignored).
    ///   - durability: what to wait for before returning.
    /// - Returns: false when the recording is closed or failed (then nothing is written).
    @discardableResult
    public func append(_ exchange: RecordedExchange, durability: Durability = .written) -> Bool {
        append(encoded: exchange.encodedMembers(), durability: durability)
    }

    /// Numbers and writes an exchange already encoded: a compact JSON object of every member
    /// but `exchange`, which is written first.
    /// - Parameters:
    ///   - encoded: the object's bytes, `{` first, at least one member, no newline.
    ///   - durability: what to wait for before returning.
    /// - Returns: false when the recording is closed or failed, or `encoded` does not start
    ///   with `{` or holds a line feed (its JSON is not checked further).
    @discardableResult
    public func append(encoded: [UInt8], durability: Durability = .written) -> Bool {
        append(encodedPieces: [encoded], durability: durability)
    }

    /// Numbers and writes an exchange already encoded in pieces, as
    /// `RecordedExchange.encodedPieces(request:response:)` gives them; one `writev`.
    /// - Parameters:
    ///   - pieces: pieces whose concatenation is the object, `{` first, no newline.
    ///   - durability: what to wait for before returning.
    /// - Returns: false when the recording is closed or failed, or the pieces do not start with
    ///   `{` or hold a line feed (their JSON is not checked further).
    @discardableResult
    public func append(encodedPieces pieces: [[UInt8]], durability: Durability = .written) -> Bool {
        guard let head = pieces.first, head.first == 0x7B, pieces.reduce(0, { $0 + $1.count }) > 2,
            !pieces.contains(where: { piece in
                piece.withUnsafeBytes { $0.baseAddress.map { memchr($0, 0x0A, piece.count) != nil } ?? false }
            })
        else { return false }
        // Everything but the number is laid out before the lock is taken, on the stack: under
        // the lock, only the prefix is printed and the line written.
        let (accepted, wakeSyncer) = withUnsafeTemporaryAllocation(of: iovec.self, capacity: pieces.count + 2) { vectors in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: Self.prefixCapacity) { prefix in
                Self.withVectors(of: pieces, into: vectors, from: 0, filled: 1) { filled -> (Bool, Bool) in
                    vectors[filled] = iovec(iov_base: UnsafeMutableRawPointer(mutating: Self.newline.utf8Start), iov_len: 1)
                    let lineVectors = UnsafeMutableBufferPointer(rebasing: vectors[..<(filled + 1)])
                    let unprefixed = lineVectors.dropFirst().reduce(0) { $0 + $1.iov_len }
                    return state.withLock { state -> (Bool, Bool) in
                        guard !state.closing, state.error == nil else { return (false, false) }
                        let printed = Self.printPrefix(state.written + 1, into: UnsafeMutableRawBufferPointer(prefix))
                        lineVectors[0] = iovec(iov_base: UnsafeMutableRawPointer(prefix.baseAddress), iov_len: printed)
                        reserve(&state, through: state.size + printed + unprefixed)
                        if let failure = Self.writeAll(fd, lineVectors) {
                            state.error = .write(path, failure)
                            return (false, false)
                        }
                        // `.synced` syncs under the lock, so close() cannot close the file before it.
                        if durability == .synced, fsync(fd) != 0 {
                            state.error = .write(path, String(cString: strerror(errno)))
                            return (false, false)
                        }
                        state.written += 1
                        state.size += printed + unprefixed
                        defer { state.dirty = true }
                        return (true, !state.dirty)
                    }
                }
            }
        }
        guard accepted else { return false }
        if wakeSyncer { syncWake.signal() }
        return true
    }

    /// Stops accepting exchanges, syncs and closes the file; waits for a write in progress.
    public func close() {
        let first = state.withLock { state in
            defer { state.closing = true }
            return !state.closing
        }
        guard first else { return }
        syncWake.signal()
        syncerStopped.wait()
        _ = fsync(fd)
        releaseReservation()
        Glibc.close(fd)
    }

    /// Syncs the file when the writers left unsynced lines, at most once per `syncInterval`,
    /// until `close()` stops it.
    private func sync() {
        let clock = ContinuousClock()
        var last = clock.now - syncInterval
        var released = 0
        while true {
            syncWake.wait()
            if state.withLock({ $0.closing }) { break }
            let due = last + syncInterval
            if clock.now < due {
                // Sleep out the interval, but wake at once for close().
                let (seconds, attoseconds) = (due - clock.now).components
                let nanoseconds = Int(seconds) * 1_000_000_000 + Int(attoseconds / 1_000_000_000)
                if syncWake.wait(timeout: .now() + .nanoseconds(max(0, nanoseconds))) == .success, state.withLock({ $0.closing }) { break }
            }
            state.withLock { $0.dirty = false }
            last = clock.now
            var status = stat()
            let size = fstat(fd, &status) == 0 ? Int(status.st_size) : 0
            if fsync(fd) != 0 {
                let reason = String(cString: strerror(errno))
                state.withLock { state in
                    if state.error == nil { state.error = .write(path, reason) }
                }
            } else if size > released {
                // What is synced is never read back: hand its pages to the kernel at once, so the
                // lines to come are copied into pages just freed rather than ones long unused (on
                // a VM the difference is several times the copy's cost) and a long recording
                // does not push everything else out of the page cache.
                // Whole pages only: the kernel keeps a page the range starts or ends inside.
                let end = size & ~(Int(getpagesize()) - 1)
                if end > released {
                    _ = posix_fadvise(fd, off_t(released), off_t(end - released), POSIX_FADV_DONTNEED)
                    released = end
                }
            }
        }
        syncerStopped.signal()
    }

    /// Blocks reserved past the end at a time: appends then find their blocks allocated, which
    /// makes a large line's write about 40% cheaper on ext4 (see docs/benchmarks.md).
    static var reservationStep: Int { 8 << 20 }

    /// Reserves the file's blocks through `end` and a step beyond, without changing its size.
    /// Best effort: where the file system cannot (or the disk is full), appends allocate their
    /// blocks as they go, as without it, and a write that cannot fails as before.
    private func reserve(_ state: inout State, through end: Int) {
        guard end > state.reserved else { return }
        let target = end + Self.reservationStep
        if accord_reserve_beyond_end(fd, off_t(state.reserved), off_t(target - state.reserved)) == 0 {
            state.reserved = target
        } else {
            state.reserved = Int.max
        }
    }

    /// Gives back the blocks reserved past the end (truncating to its size frees them). A
    /// killed proxy leaves them reserved, outside the file's size, until the file is truncated
    /// or removed.
    private func releaseReservation() {
        var status = stat()
        if fstat(fd, &status) == 0 { _ = ftruncate(fd, status.st_size) }
    }
}
