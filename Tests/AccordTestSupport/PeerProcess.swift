import Foundation

/// Runs a program (curl, python3, psql, scripts) to its end off the concurrency pool, so that a
/// slow one does not hold one of its few threads while other tests wait to be resumed, and
/// collects both streams; a watchdog terminates it when it overruns.
public enum PeerProcess {
    /// How a program ended and what it wrote.
    public struct Output: Sendable {
        /// Its exit status, or the signal that ended it.
        public var status: Int32
        /// Everything it wrote to stdout.
        public var stdout: String
        /// Everything it wrote to stderr.
        public var stderr: String
    }

    /// The program could not be started.
    public struct LaunchError: Error, CustomStringConvertible {
        /// The program and why.
        public var description: String
    }

    private final class Collected: @unchecked Sendable {
        var stdout = Data()
        var stderr = Data()
    }

    /// - Parameters:
    ///   - environment: the child's whole environment; nil inherits this process's.
    ///   - directory: the folder it starts in.
    public static func run(
        _ executable: String, _ arguments: [String], input: Data = Data(), timeout: TimeInterval = 30,
        environment: [String: String]? = nil, directory: String? = nil
    ) async throws -> Output {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Output, Error>) in
            let thread = Thread {
                let process = ChildProcess()
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = arguments
                process.environment = environment
                process.currentDirectoryURL = directory.map { URL(fileURLWithPath: $0) }
                let stdin = Pipe()
                let stdout = Pipe()
                let stderr = Pipe()
                process.standardInput = stdin
                process.standardOutput = stdout
                process.standardError = stderr
                do {
                    try process.run()
                } catch {
                    continuation.resume(throwing: LaunchError(description: "\(executable): \(error)"))
                    return
                }
                let collected = Collected()
                let group = DispatchGroup()
                group.enter()
                DispatchQueue.global().async {
                    collected.stderr = stderr.fileHandleForReading.readDataToEndOfFile()
                    group.leave()
                }
                DispatchQueue.global().asyncAfter(deadline: .now() + timeout) { [process] in
                    if process.isRunning { process.terminate() }
                }
                stdin.fileHandleForWriting.write(input)
                try? stdin.fileHandleForWriting.close()
                collected.stdout = stdout.fileHandleForReading.readDataToEndOfFile()
                group.wait()
                process.waitUntilExit()
                continuation.resume(
                    returning: Output(
                        status: process.terminationStatus, stdout: String(decoding: collected.stdout, as: UTF8.self),
                        stderr: String(decoding: collected.stderr, as: UTF8.self)))
            }
            thread.start()
        }
    }

    /// Runs a Python program given as text.
    public static func python(_ program: String, timeout: TimeInterval = 30) async throws -> Output {
        try await run("/usr/bin/env", ["python3", "-c", program], timeout: timeout)
    }

    /// Runs curl with `--silent --show-error` and a bound on the whole transfer.
    public static func curl(_ arguments: [String], input: Data = Data(), timeout: TimeInterval = 30) async throws -> Output {
        try await run("/usr/bin/curl", ["--silent", "--show-error", "--max-time", "20"] + arguments, input: input, timeout: timeout)
    }
}
