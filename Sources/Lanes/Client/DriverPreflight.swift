import AccordDriver
import Foundation
import Harness

/// The client lane's check before the first case: one driver is started and asked hello, within
/// the run's `--timeout`, so a driver that is not installed or does not speak the driver protocol
/// reads as one line (a setup error) rather than as a `CL-DRIVER` failure of every case.
enum DriverPreflight {
    /// The shell's exit status for a command it cannot find.
    static let commandNotFound: Int32 = 127

    /// Starts a driver, asks hello and closes it.
    /// - Parameters:
    ///   - launch: starts the driver.
    ///   - command: the driver's command line, for the message.
    ///   - timeout: how long the driver may take to answer hello.
    /// - Returns: the driver's hello (its name, version and capabilities).
    /// - Throws: `RunError.setup` for a driver that does not start, is not found, ends or times out
    ///   before answering, answers something that is not a hello, or refuses hello.
    static func hello(_ launch: () throws(RunError) -> any DriverChannel, command: String, timeout: Duration) async throws(RunError)
        -> HelloResult
    {
        let fix = "install the driver or pass the right --client command; it speaks docs/driver-protocol.md on stdin/stdout"
        let channel: any DriverChannel
        do throws(RunError) {
            channel = try launch()
        } catch {
            throw RunError.setup("the driver '\(command)' did not start (\(error))", fix: fix)
        }
        await channel.send(DriverRequest.hello(id: 1).line, timeout: timeout)
        let event = await channel.nextLine(timeout: timeout)
        switch event {
        case .timedOut:
            await channel.kill()
            throw RunError.setup(
                "the driver '\(command)' did not answer hello within \(timeout)\(tail(channel))",
                fix: "make it answer hello on standard output (docs/driver-protocol.md), or give it longer with --timeout")
        case .ended:
            let ending = await channel.finish(timeout: .seconds(1)) ?? "it closed its output"
            if let process = channel as? ProcessDriver, process.exitStatus == commandNotFound {
                throw RunError.setup("the driver '\(command)' was not found (the shell exited 127\(tail(channel)))", fix: fix)
            }
            throw RunError.setup("the driver '\(command)' ended before answering hello: \(ending)\(tail(channel))", fix: fix)
        case .tooLong(let limit):
            await channel.kill()
            throw RunError.setup(
                "the driver '\(command)' answered hello with a line over \(limit / (1024 * 1024)) MiB, the longest the runner reads",
                fix: fix)
        case .line(let bytes):
            _ = await channel.finish(timeout: .seconds(5))
            let response: DriverResponse
            do throws(DriverError) {
                response = try DriverResponse(line: bytes, answering: .hello)
            } catch {
                throw RunError.setup(
                    "the driver '\(command)' does not speak the driver protocol: its answer to hello is not one (\(error)); line: \(String(decoding: bytes.prefix(200), as: UTF8.self))",
                    fix: fix)
            }
            guard response.id == 1 else {
                throw RunError.setup(
                    "the driver '\(command)' answered hello id 1 with id \(response.id.map(String.init) ?? "null")",
                    fix: "answer each request with its own id (docs/driver-protocol.md §3)")
            }
            if let failure = response.failure {
                throw RunError.setup(
                    "the driver '\(command)' refused hello: \(failure)",
                    fix: "give it a driver that speaks \(DriverRequest.protocolVersion)")
            }
            guard case .hello(let hello)? = response.result else {
                throw RunError.setup("the driver '\(command)' answered hello with something else", fix: fix)
            }
            return hello
        }
    }

    /// `; stderr: …` with the last of the driver's standard error, or nothing.
    private static func tail(_ channel: any DriverChannel) -> String {
        let text = channel.stderrTail.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !text.isEmpty else { return "" }
        let last = text.split(separator: "\n").last.map(String.init) ?? text
        return "; stderr: \(last.suffix(200))"
    }
}
