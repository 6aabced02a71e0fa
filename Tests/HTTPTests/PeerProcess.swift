import Foundation

/// Runs a peer program (curl, python3) off the cooperative pool and collects its output; a
/// watchdog terminates it when it overruns.
enum PeerProcess {
    struct Output: Sendable {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    struct LaunchError: Error, CustomStringConvertible {
        var description: String
    }

    private final class Collected: @unchecked Sendable {
        var stdout = Data()
        var stderr = Data()
    }

    static func run(_ executable: String, _ arguments: [String], input: Data = Data(), timeout: TimeInterval = 30) async throws -> Output {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Output, Error>) in
            let thread = Thread {
                let process = Process()
                process.executableURL = URL(fileURLWithPath: executable)
                process.arguments = arguments
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
    static func python(_ program: String, timeout: TimeInterval = 30) async throws -> Output {
        try await run("/usr/bin/env", ["python3", "-c", program], timeout: timeout)
    }

    /// Runs curl with `--silent --show-error` and a bound on the whole transfer.
    static func curl(_ arguments: [String], input: Data = Data(), timeout: TimeInterval = 30) async throws -> Output {
        try await run("/usr/bin/curl", ["--silent", "--show-error", "--max-time", "20"] + arguments, input: input, timeout: timeout)
    }
}
