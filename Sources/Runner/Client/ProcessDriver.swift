import Foundation
import Synchronization

/// A driver run as a child process: `/bin/sh -c "exec <command>"`, requests on its standard
/// input, answers read from its standard output on a reader thread, standard error kept as a tail.
public final class ProcessDriver: DriverChannel {
    private let process: Process
    private let input: FileHandle
    private let lines = LineQueue()
    private let errors = Mutex<[UInt8]>([])
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
        process.arguments = ["-c", "exec " + command]
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        process.environment = env
        let stdin = Pipe()
        let stdout = Pipe()
        let stderr = Pipe()
        process.standardInput = stdin
        process.standardOutput = stdout
        process.standardError = stderr
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
        }
    }

    /// Writes a request line; a driver that has gone away is noticed when its answer does not come.
    public func send(_ line: [UInt8]) async {
        try? input.write(contentsOf: line)
    }

    /// Waits for the next answer line.
    public func nextLine(timeout: Duration) async -> DriverLineEvent { await lines.next(timeout: timeout) }

    /// Closes the driver's standard input and waits for its exit, killing it after `timeout`.
    public func finish(timeout: Duration) async -> String? {
        try? input.close()
        let deadline = ContinuousClock.now + timeout
        while process.isRunning && ContinuousClock.now < deadline {
            try? await Task.sleep(for: .milliseconds(5))
        }
        if process.isRunning {
            await kill()
            return "the driver did not exit within \(timeout) of the end of its input"
        }
        return Self.ending(process)
    }

    /// Sends SIGKILL and waits for the process to be gone.
    public func kill() async {
        if process.isRunning { Foundation.kill(process.processIdentifier, SIGKILL) }
        try? input.close()
        while process.isRunning { try? await Task.sleep(for: .milliseconds(2)) }
    }

    /// The tail of the driver's standard error.
    public var stderrTail: String { String(decoding: errors.withLock { $0 }, as: UTF8.self) }

    /// A description of an unclean ending, or nil for exit status 0.
    static func ending(_ process: Process) -> String? {
        switch process.terminationReason {
        case .exit where process.terminationStatus == 0: nil
        case .exit: "the driver exited with status \(process.terminationStatus)"
        case .uncaughtSignal: "the driver died of signal \(process.terminationStatus)"
        @unknown default: "the driver ended abnormally"
        }
    }

    /// Whether the process is still running.
    public var isRunning: Bool { process.isRunning }
}
