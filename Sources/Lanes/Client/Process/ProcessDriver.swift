import CLinux
import Foundation
import Glibc
import HTTP
import Harness
import Synchronization

/// A driver run as a child process (`DriverProcess`: `/bin/sh -c <command>`, its own process
/// group, a session marker its descendants inherit). Requests are written and answers read on
/// threads of their own, standard error kept as a tail. Every wait is bounded: the readers stop
/// when their pipes end or when the session is over, whichever comes first, so a detached child
/// that keeps the driver's pipes open cannot hold the runner.
public final class ProcessDriver: DriverChannel {
    private let process: DriverProcess
    private let input: Int32
    private let lines = LineQueue()
    private let errors = Tail()
    private let stdoutEnded = Latch()
    private let stderrEnded = Latch()
    /// Rung when the session is over: the readers stop even if a stray still holds a pipe.
    private let over: Wakeup
    /// How long the readers may drain what the driver wrote before it ended.
    private static let drainTime = Duration.seconds(1)

    /// Starts the command.
    /// - Parameters:
    ///   - command: a shell command line, e.g. `accord driver`.
    ///   - environment: extra environment variables for the driver.
    /// - Throws: `RunError` when the process cannot be started.
    public init(command: String, environment: [String: String] = [:]) throws(RunError) {
        signal(SIGPIPE, SIG_IGN)
        guard let over = Wakeup() else { throw RunError.usage("--client '\(command)': no descriptor left to start the driver") }
        var pipes: [[Int32]] = []
        for _ in 0..<3 {
            var ends: [Int32] = [-1, -1]
            guard pipe2(&ends, O_CLOEXEC) == 0 else {
                for opened in pipes.joined() { close(opened) }
                throw RunError.usage("--client '\(command)': no descriptor left to start the driver: \(String(cString: strerror(errno)))")
            }
            pipes.append(ends)
        }
        let process: DriverProcess
        do {
            process = try DriverProcess(
                command: command, environment: environment, stdin: pipes[0][0], stdout: pipes[1][1], stderr: pipes[2][1])
        } catch {
            for opened in pipes.joined() { close(opened) }
            throw error
        }
        // The child's ends belong to the child now.
        close(pipes[0][0])
        close(pipes[1][1])
        close(pipes[2][1])
        self.process = process
        self.over = over
        self.input = pipes[0][1]
        let lines = self.lines
        Self.read(pipes[1][0], until: over, ended: stdoutEnded) { [lines] chunk, splitter in
            splitter.feed(chunk, into: lines)
        } finish: {
            splitter in
            splitter.finish(into: lines)
        }
        let errors = self.errors
        Self.read(pipes[2][0], until: over, ended: stderrEnded) { chunk, _ in
            errors.append(chunk)
        } finish: { _ in
        }
    }

    deinit {
        over.ring()
        closeInput()
    }

    /// Reads `fd` on a thread of its own until its end or until `over` rings, then closes it.
    private static func read(
        _ fd: Int32, until over: Wakeup, ended: Latch, chunk: @escaping @Sendable ([UInt8], inout LineSplitter) -> Void,
        finish: @escaping @Sendable (inout LineSplitter) -> Void
    ) {
        Thread.detachNewThread {
            var splitter = LineSplitter()
            var buffer = [UInt8](repeating: 0, count: 65536)
            var fds = [pollfd(fd: fd, events: Int16(POLLIN), revents: 0), pollfd(fd: over.fd, events: Int16(POLLIN), revents: 0)]
            reading: while true {
                if poll(&fds, 2, -1) < 0 {
                    if errno == EINTR { continue }
                    break
                }
                if fds[0].revents != 0 {
                    let count = buffer.withUnsafeMutableBytes { Glibc.read(fd, $0.baseAddress, $0.count) }
                    if count < 0 && errno == EINTR { continue }
                    if count <= 0 { break reading }
                    chunk(Array(buffer[..<count]), &splitter)
                    continue
                }
                if fds[1].revents != 0 { break }
            }
            finish(&splitter)
            close(fd)
            ended.set()
        }
    }

    /// Writes a request line on a thread of its own; a driver that does not read it within
    /// `timeout` is killed, which ends the write. A driver that has gone away is noticed when its
    /// answer does not come.
    public func send(_ line: [UInt8], timeout: Duration) async {
        let input = self.input
        let written = Latch()
        let watchdog = Task { [self] in
            try? await Task.sleep(for: timeout)
            if !written.isSet { await kill() }
        }
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                var offset = 0
                while offset < line.count {
                    let count = line.withUnsafeBytes { Glibc.write(input, $0.baseAddress.map { $0 + offset }, line.count - offset) }
                    if count < 0 && errno == EINTR { continue }
                    if count <= 0 { break }
                    offset += count
                }
                written.set()
                continuation.resume()
            }
        }
        watchdog.cancel()
    }

    /// Waits for the next answer line.
    public func nextLine(timeout: Duration) async -> DriverLineEvent { await lines.next(timeout: timeout) }

    /// Closes the driver's input and waits for its exit, killing it after `timeout`; then whatever
    /// the driver left behind (in its group, or marked and elsewhere) goes with it.
    public func finish(timeout: Duration) async -> String? {
        closeInput()
        guard await process.exited.wait(timeout: timeout) else {
            await kill()
            return "the driver did not exit within \(timeout) of the end of its input"
        }
        let strays = process.sweep()
        await endReads()
        if strays > 0, ending == .exited(status: 0) {
            return "the driver left \(strays) process\(strays == 1 ? "" : "es") running outside its process group (killed)"
        }
        return ending?.description
    }

    /// Kills the driver's process group and every marked stray, and waits (boundedly) for the
    /// shell to be reaped and the reads to end.
    public func kill() async {
        // The input stays open: a write in flight ends with EPIPE once the driver is gone, and
        // its descriptor cannot be reused under it. finish() or deinit closes it.
        process.sweep()
        await process.exited.wait(timeout: .seconds(5))
        await endReads()
    }

    /// Lets the readers drain for a moment, then stops them whether or not their pipes ended.
    private func endReads() async {
        if await stdoutEnded.wait(timeout: Self.drainTime), await stderrEnded.wait(timeout: Self.drainTime) { return }
        over.ring()
        await stdoutEnded.wait(timeout: Self.drainTime)
        await stderrEnded.wait(timeout: Self.drainTime)
    }

    private let inputClosed = Atomic<Bool>(false)

    /// Closes the driver's standard input (its EOF), once; called when no write is in flight.
    private func closeInput() {
        if inputClosed.compareExchange(expected: false, desired: true, ordering: .relaxed).exchanged { close(input) }
    }

    /// The tail of the driver's standard error.
    public var stderrTail: String { errors.text }

    /// How the process ended, once it has.
    public var ending: DriverEnding? { process.ending }

    /// The driver's process group: the shell's pid, which leads the group its children join.
    public var processGroup: Int32? { process.pid }

    /// Whether the process is still running.
    public var isRunning: Bool { process.isRunning }

    /// The exit status once the process has exited (not for a death by signal), else nil; 127 is
    /// the shell's "command not found".
    public var exitStatus: Int32? {
        guard case .exited(let status) = ending else { return nil }
        return status
    }

    /// The last 4 KiB of the driver's standard error.
    private final class Tail: Sendable {
        private static let limit = 4096
        private let bytes = Mutex<[UInt8]>([])

        func append(_ chunk: [UInt8]) {
            bytes.withLock { tail in
                tail.append(contentsOf: chunk)
                if tail.count > Self.limit { tail.removeFirst(tail.count - Self.limit) }
            }
        }

        var text: String { String(decoding: bytes.withLock { $0 }, as: UTF8.self) }
    }
}
