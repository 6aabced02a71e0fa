import AccordVersion
import Capture
import Corpus
import Foundation
import HTTP
import Harness
import Lanes
import Recorder

enum RecordCommand: Command {
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
            OptionSpec(.upstream, value: "url", help: "The server to forward to, e.g. https://xyz.supabase.co.", required: true),
            OptionSpec(.listen, value: "host:port", help: "The address to bind (default 127.0.0.1:54322; port 0 picks one)."),
            OptionSpec(.out, value: "file", help: "The recording to write; it must not exist or be empty.", required: true),
            OptionSpec(.redact, value: "name", help: "Also redact this header, query or JSON key name (repeatable).", repeatable: true),
            OptionSpec(.keep, value: "name", help: "Do not redact this header, query or JSON key name (repeatable).", repeatable: true),
            OptionSpec(.loops, value: "n", help: "Event-loop threads serving clients (default: one per processor, at most 4)."),
            OptionSpec(
                .upstreamTimeout, value: "seconds",
                help:
                    "End an exchange whose upstream sends nothing for this long: 504, or a cut answer (default 60; 0 waits for ever; at least 0.1)."
            ),
            OptionSpec(
                .upstreamCA, value: "file",
                help: "Trust the certificate authorities in this PEM file for an https upstream, in place of the system's."),
            OptionSpec(
                .bufferBudget, value: "bytes",
                help:
                    "The most request bytes all connections may hold at once; past it a request is answered 503 (default 256MiB; a K, M or G suffix counts KiB, MiB or GiB; at least 64K)."
            ),
            OptionSpec(
                .profile, value: "profile",
                help:
                    "The protocol the recording's header names: 'kizunasync' (default) or 'powersync'; readers then read it with that profile's rules."
            ),
            OptionSpec(flag: .quiet, help: "No live status line on stderr."),
        ])

    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        guard let upstream = arguments.value(.upstream) else { throw RunError.usage("missing --upstream <url>") }
        guard let output = arguments.value(.out), !output.isEmpty else { throw RunError.usage("missing --out <file>") }
        let listen = arguments.value(.listen) ?? "127.0.0.1:54322"
        guard let endpoint = HTTPEndpoint(listen: listen) else {
            throw RunError.usage("--listen takes HOST:PORT (e.g. 127.0.0.1:0), found '\(listen)'")
        }
        let loops = try arguments.value(.loops, as: .number(in: 1...64))
        let profile = try arguments.value(.profile, as: .profile)
        var upstreamTimeout: Duration? = .seconds(60)
        // The proxy looks at its exchanges every 100 ms: a shorter limit could not be kept.
        let timeout = OptionConversion<Double>.seconds(
            in: 0.1...86_400, orZero: true, expected: "seconds from 0.1 to 86400, or 0 to wait for ever")
        if let seconds = try arguments.value(.upstreamTimeout, as: timeout) { upstreamTimeout = seconds == 0 ? nil : .seconds(seconds) }
        let caFile = arguments.value(.upstreamCA)
        let budget = OptionConversion<Int>.bytes(atLeast: 64 * 1024, expected: "a number of bytes, at least 64K (e.g. 268435456 or 256M)")
        let bufferBudget = try arguments.value(.bufferBudget, as: budget)
        let policy = RedactionPolicy(redact: arguments.values(.redact), keep: arguments.values(.keep))
        let proxy: RecordingProxy
        do {
            var configuration = try RecorderConfiguration(
                upstream: upstream, output: output, listen: endpoint, redaction: policy, tool: "accord \(AccordVersion.number)")
            if let loops { configuration.eventLoops = loops }
            if let profile { configuration.profile = profile }
            configuration.upstreamTimeout = upstreamTimeout
            configuration.upstreamCAFile = caFile
            if let bufferBudget { configuration.bufferBudget = bufferBudget }
            HeapSettings.keepFreedMemory()
            proxy = try RecordingProxy.start(configuration)
        } catch {
            if error.isListenFailure { throw RunError.unavailable(error.description) }
            throw RunError.usage(error.description)
        }
        let interrupt = Interrupt.arm()
        console.out("accord record: listening on http://\(proxy.endpoint), recording to \(output)")
        let live = !arguments.has(.quiet) && isatty(STDERR_FILENO) == 1
        let interrupted = StopEvent()
        let status = live ? Task { await StatusLine.run(proxy, until: interrupted) } : nil
        await interrupt.wait()
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
