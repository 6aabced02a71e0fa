import Capture
import Corpus
import Foundation
import HTTP

/// What a `RecordingProxy` forwards to, where it listens, where it records and what it hides.
public struct RecorderConfiguration: Sendable {
    /// The upstream base URL without a trailing slash, e.g. "https://xyz.supabase.co".
    public let upstream: String
    /// The upstream as recorded in the header: scheme, host and port only.
    public let upstreamHost: String
    /// The address to listen on; 127.0.0.1 and an ephemeral port unless set.
    public var listen: HTTPEndpoint
    /// The recording file; it must not exist or be empty.
    public var output: String
    /// The redaction policy.
    public var redaction: RedactionPolicy
    /// The tool named in the header line, e.g. "accord 0.1.0".
    public var tool: String
    /// The protocol the header line names (`protocol`): the header is written before the first
    /// exchange, so the recorder is told it (`accord record --profile`); KizunaSync by default,
    /// as every recording before it said.
    public var profile = CorpusProfile.kizunaSync
    /// The most client connections served at once.
    public var maxConnections: Int
    /// The most body bytes kept per message for the recording; the rest is forwarded, not recorded.
    public var recordedBodyLimit: Int
    /// The longest line written for an exchange, newline included; bodies that would make it
    /// longer are left out, saying so (`:accord-not-recorded`). By default the longest line a
    /// recording's readers take without `--max-line`, so that a recording is always readable.
    public var recordedLineLimit: Int
    /// The largest request body accepted from a client.
    public var requestBodyLimit: Int
    /// The most request bytes all connections together may hold at once (received and not yet
    /// parsed, chunked bodies being decoded, bodies being forwarded). A request arriving past it
    /// is answered 503; a connection with pipelined requests behind one in progress stops
    /// reading. By default 256 MiB: eight largest bodies (`requestBodyLimit`).
    public var bufferBudget: Int
    /// How long a client request may take to arrive (then 408).
    public var readTimeout: Duration
    /// How long a kept-alive client connection may sit idle between requests (then it is closed).
    public var idleTimeout: Duration
    /// The longest nothing may move to or from the upstream (request bytes sent, header or body
    /// bytes received) while an exchange waits for it, before the exchange is ended: 504 for the
    /// client when no head had come, a cut answer after; nil waits for ever. Time the proxy
    /// itself paused the transfer (a client reading slowly) does not count.
    public var upstreamTimeout: Duration?
    /// A PEM file of the certificate authorities to trust for an https upstream, in place of
    /// the system's bundle and certificate folder (an internal or self-signed certificate); nil
    /// for the system's. `RecordingProxy.start` refuses a file with no PEM certificate.
    public var upstreamCAFile: String?
    /// How long `stop()` lets exchanges in flight finish.
    public var gracePeriod: Duration
    /// What each connection waits for before reading its next request. By default (`.written`)
    /// its exchange is recorded on the connection's thread and the line is in the file (so it
    /// survives a SIGKILL of the proxy) before the next request is read; `.synced` also waits for
    /// the disk; `.queued` hands the exchange to a recording thread and goes on (fastest, but a
    /// SIGKILL can lose the exchanges still queued).
    public var durability: RecordingWriter.Durability
    /// How many event loops (threads) serve client connections; by default one per processor,
    /// at most four. With `.synced` durability a loop waits for the disk at each exchange.
    public var eventLoops: Int

    /// Makes a configuration.
    /// - Parameters:
    ///   - upstream: the upstream base URL, http or https, without credentials, query or fragment.
    ///   - output: the recording file.
    ///   - listen: the address to listen on.
    ///   - redaction: the redaction policy.
    ///   - tool: the tool named in the header line.
    /// - Throws: `RecorderError` when the upstream URL is not usable.
    public init(
        upstream: String, output: String, listen: HTTPEndpoint = HTTPEndpoint(host: "127.0.0.1", port: 0),
        redaction: RedactionPolicy = RedactionPolicy(), tool: String = "accord"
    ) throws(RecorderError) {
        guard let components = URLComponents(string: upstream), let scheme = components.scheme?.lowercased(),
            scheme == "http" || scheme == "https", let host = components.host, !host.isEmpty
        else { throw RecorderError.upstream("expected an http:// or https:// URL with a host") }
        guard components.user == nil, components.password == nil else {
            throw RecorderError.upstream("credentials in the URL are not supported; the client's headers are forwarded")
        }
        guard components.query == nil, components.fragment == nil else {
            throw RecorderError.upstream("the URL may not have a query or a fragment")
        }
        var base = upstream
        while base.hasSuffix("/") { base.removeLast() }
        self.upstream = base
        let hostText = host.contains(":") ? "[\(host)]" : host
        upstreamHost = "\(scheme)://\(hostText)" + (components.port.map { ":\($0)" } ?? "")
        self.listen = listen
        self.output = output
        self.redaction = redaction
        self.tool = tool
        maxConnections = 512
        recordedBodyLimit = 16 * 1024 * 1024
        recordedLineLimit = RecordingReader.defaultMaxLine
        requestBodyLimit = 32 * 1024 * 1024
        bufferBudget = 256 * 1024 * 1024
        readTimeout = .seconds(10)
        idleTimeout = .seconds(60)
        upstreamTimeout = .seconds(60)
        gracePeriod = .seconds(5)
        durability = .written
        eventLoops = min(4, max(1, ProcessInfo.processInfo.activeProcessorCount))
    }
}
