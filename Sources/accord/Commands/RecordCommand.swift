import Capture
import Corpus
import Foundation
import HTTP
import Recorder
import Runner

enum RecordCommand {
    static let spec = CommandSpec(
        name: "record",
        abstract: "Record a client's traffic with a server through a streaming reverse proxy.",
        discussion: """
            Forwards every request to --upstream (http or https) and streams each answer back as it
            arrives, while appending each exchange to --out as JSON Lines (see docs/recording.md).
            Binds 127.0.0.1 unless --listen names another address. Authorization, apikey, cookies,
            JWT-shaped values and token/secret/password-named keys are replaced by placeholders such as
            <redacted:jwt:1>. SIGINT or SIGTERM finishes the exchanges in flight, closes the recording
            and exits 0.
            """,
        arguments: [],
        options: [
            OptionSpec(long: "upstream", valueName: "url", help: "The server to forward to, e.g. https://xyz.supabase.co."),
            OptionSpec(long: "listen", valueName: "host:port", help: "The address to bind (default 127.0.0.1:54322; port 0 picks one)."),
            OptionSpec(long: "out", valueName: "file", help: "The recording to write; it must not exist or be empty."),
            OptionSpec(long: "redact", valueName: "name", help: "Also redact this header, query or JSON key name (repeatable)."),
            OptionSpec(long: "keep", valueName: "name", help: "Do not redact this header, query or JSON key name (repeatable)."),
            OptionSpec(long: "loops", valueName: "n", help: "Event-loop threads serving clients (default: one per processor, at most 4)."),
            OptionSpec(
                long: "upstream-timeout", valueName: "seconds",
                help:
                    "End an exchange whose upstream sends nothing for this long: 504, or a cut answer (default 60; 0 waits for ever; at least 0.1)."
            ),
            OptionSpec(
                long: "upstream-ca", valueName: "file",
                help: "Trust the certificate authorities in this PEM file for an https upstream, in place of the system's."),
            OptionSpec(
                long: "buffer-budget", valueName: "bytes",
                help:
                    "The most request bytes all connections may hold at once; past it a request is answered 503 (default 256MiB; a K, M or G suffix counts KiB, MiB or GiB; at least 64K)."
            ),
            OptionSpec(long: "quiet", valueName: nil, help: "No live status line on stderr."),
        ],
        usage:
            "--upstream <url> [--listen <host:port>] --out <file> [--redact <name>]... [--keep <name>]... [--loops <n>] [--upstream-timeout <seconds>] [--upstream-ca <file>] [--buffer-budget <bytes>] [--quiet]"
    )

    static func run(_ arguments: ParsedArguments, console: Console) async throws(RunError) -> Int32 {
        guard let upstream = arguments.values["upstream"] else { throw RunError.usage("missing --upstream <url>") }
        guard let output = arguments.values["out"], !output.isEmpty else { throw RunError.usage("missing --out <file>") }
        let listen = arguments.values["listen"] ?? "127.0.0.1:54322"
        guard let endpoint = HTTPEndpoint(listen: listen) else {
            throw RunError.usage("--listen takes HOST:PORT (e.g. 127.0.0.1:0), found '\(listen)'")
        }
        var loops: Int?
        if let text = arguments.values["loops"] {
            guard let count = Int(text), (1...64).contains(count) else {
                throw RunError.usage("--loops takes a number from 1 to 64, found '\(text)'")
            }
            loops = count
        }
        var upstreamTimeout: Duration? = .seconds(60)
        if let text = arguments.values["upstream-timeout"] {
            // The proxy looks at its exchanges every 100 ms: a shorter limit could not be kept.
            guard let seconds = Double(text), seconds == 0 || (0.1...86_400).contains(seconds) else {
                throw RunError.usage("--upstream-timeout takes seconds from 0.1 to 86400, or 0 to wait for ever; found '\(text)'")
            }
            upstreamTimeout = seconds == 0 ? nil : .seconds(seconds)
        }
        let caFile = arguments.values["upstream-ca"]
        var bufferBudget: Int?
        if let text = arguments.values["buffer-budget"] {
            guard let bytes = byteCount(text), bytes >= 64 * 1024 else {
                throw RunError.usage("--buffer-budget takes a number of bytes, at least 64K (e.g. 268435456 or 256M), found '\(text)'")
            }
            bufferBudget = bytes
        }
        let policy = RedactionPolicy(redact: arguments.repeated["redact"] ?? [], keep: arguments.repeated["keep"] ?? [])
        let proxy: RecordingProxy
        do {
            var configuration = try RecorderConfiguration(
                upstream: upstream, output: output, listen: endpoint, redaction: policy, tool: "accord \(CheckRun.accordVersion)")
            if let loops { configuration.eventLoops = loops }
            configuration.upstreamTimeout = upstreamTimeout
            configuration.upstreamCAFile = caFile
            if let bufferBudget { configuration.bufferBudget = bufferBudget }
            HeapSettings.keepFreedMemory()
            proxy = try RecordingProxy.start(configuration)
        } catch {
            throw RunError.usage(error.description)
        }
        console.out("accord record: listening on http://\(proxy.endpoint), recording to \(output)")
        let live = !arguments.flags.contains("quiet") && isatty(STDERR_FILENO) == 1
        let interrupted = StopEvent()
        let status = live ? Task { await StatusLine.run(proxy, until: interrupted) } : nil
        await SignalWait.untilInterrupted()
        interrupted.signal()
        _ = await status?.value
        await proxy.stop()
        if live { FileHandle.standardError.write(Data("\r\u{1B}[K".utf8)) }
        let statistics = proxy.statistics
        if let failure = proxy.recordingFailure { console.error(failure.description) }
        console.out("accord record: stopped; \(statistics.recorded) exchanges recorded to \(output)")
        return proxy.recordingFailure == nil ? ExitCode.success : ExitCode.failure
    }
}

extension RecordCommand {
    /// A byte count: digits, optionally followed by K, M or G (KiB, MiB, GiB; "iB" or "B" may
    /// follow the letter); nil when it is not one or does not fit.
    static func byteCount(_ text: String) -> Int? {
        var digits = Substring(text)
        var unit = 1
        for (suffix, scale) in [("G", 1 << 30), ("M", 1 << 20), ("K", 1 << 10)] {
            for spelling in [suffix + "iB", suffix + "B", suffix] where digits.uppercased().hasSuffix(spelling.uppercased()) {
                digits = digits.dropLast(spelling.count)
                unit = scale
                break
            }
            if unit != 1 { break }
        }
        guard !digits.isEmpty, digits.allSatisfy(\.isASCII), let value = Int(digits), value >= 0 else { return nil }
        let (product, overflow) = value.multipliedReportingOverflow(by: unit)
        return overflow ? nil : product
    }
}

/// The live status line on stderr, redrawn at most four times a second when it changes, until
/// the command is interrupted: the redraw waits on that event, so the stop does not wait for it.
enum StatusLine {
    static func run(_ proxy: RecordingProxy, until interrupted: StopEvent) async {
        var last = ""
        repeat {
            let line = "accord record: " + proxy.statistics.line
            if line != last {
                FileHandle.standardError.write(Data("\r\u{1B}[K\(line)".utf8))
                last = line
            }
        } while !(await interrupted.wait(until: .now + .milliseconds(250)))
    }
}
