import Foundation
import Synchronization

/// A driver run as a child process: `/bin/sh -c <command>` in its own process group (so a kill
/// reaches wrappers and pipelines too), requests written and answers read on threads of their
/// own, standard error kept as a tail.
public final class ProcessDriver: DriverChannel {
    private let process: Process
    private let input: FileHandle
    private let lines = LineQueue()
    private let errors = Mutex<[UInt8]>([])
    private let stderrEnded = Latch()
    private let exited = Latch()
    private static let tailLimit = 4096

    /// Starts the command.
    /// - Parameters:
    ///   - command: a shell command line, e.g. `accord driver`.
    ///   - environment: extra environment variables for the driver.
    /// - Throws: `RunError` when the process cannot be started.
    public init(command: String, environment: [String: String] = [:]) throws(RunError) {
        signal(SIGPIPE, SIG_IGN)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
        let exited = self.exited
        process.terminationHandler = { _ in exited.set() }
        do {
            try process.run()
        } catch {
            throw RunError.usage("--client '\(command)': the driver did not start: \(error.localizedDescription)")
        }
        self.process = process
        self.input = stdin.fileHandleForWriting
        let lines = self.lines
        let out = stdout.fileHandleForReading
        Thread.detachNewThread {
            var splitter = LineSplitter()
            while true {
                let chunk = out.availableData
                if chunk.isEmpty { break }
                splitter.feed(chunk, into: lines)
            }
            splitter.finish(into: lines)
            // The end of the output: close the read end now rather than whenever the pipe is freed,
            // so a long run (the self-test's many lanes) does not pile up descriptors; past ~1000
            // open pipes Foundation's Process.run() crashed.
            try? out.close()
        }
        let err = stderr.fileHandleForReading
        Thread.detachNewThread { [self] in
            while true {
                let chunk = err.availableData
                if chunk.isEmpty { break }
                self.errors.withLock { tail in
                    tail.append(contentsOf: chunk)
                    if tail.count > Self.tailLimit { tail.removeFirst(tail.count - Self.tailLimit) }
                }
            }
            try? err.close()
            self.stderrEnded.set()
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
                try? input.write(contentsOf: line)
                written.set()
                continuation.resume()
            }
        }
        watchdog.cancel()
    }

    /// Waits for the next answer line.
    public func nextLine(timeout: Duration) async -> DriverLineEvent { await lines.next(timeout: timeout) }

    /// Closes the driver's standard input and waits for its exit, killing it after `timeout`.
    public func finish(timeout: Duration) async -> String? {
        try? input.close()
        guard await exited.wait(timeout: timeout) else {
            await kill()
            return "the driver did not exit within \(timeout) of the end of its input"
        }
        // Whatever the driver left behind in its group goes with it.
        Foundation.kill(-process.processIdentifier, SIGKILL)
        await stderrEnded.wait(timeout: .seconds(1))
        return ending?.description
    }

    /// Sends SIGKILL to the driver's process group and waits for the driver to be gone.
    public func kill() async {
        Foundation.kill(-process.processIdentifier, SIGKILL)
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        try? input.close()
        await exited.wait()
    }

    /// The tail of the driver's standard error.
    public var stderrTail: String { String(decoding: errors.withLock { $0 }, as: UTF8.self) }

    /// How the process ended, once it has (from its termination reason and status).
    public var ending: DriverEnding? {
        guard exited.isSet else { return nil }
        switch process.terminationReason {
        case .exit: return .exited(status: process.terminationStatus)
        case .uncaughtSignal: return .signalled(process.terminationStatus)
        @unknown default: return .abnormal
        }
    }

    /// The driver's process group: the shell's pid, which leads the group its children join.
    public var processGroup: Int32? { process.processIdentifier }

    /// Whether the process is still running.
    public var isRunning: Bool { process.isRunning }

    /// The exit status once the process has exited (not for a death by signal), else nil; 127 is
    /// the shell's "command not found".
    public var exitStatus: Int32? {
        guard case .exited(let status) = ending else { return nil }
        return status
    }
}
