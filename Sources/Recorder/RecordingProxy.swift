import Corpus
import Foundation
import HTTP
import Synchronization
import Transport

/// A recording reverse proxy for the PostgREST surface: every request is forwarded to the
/// upstream over libcurl, the answer streams back as it arrives, and each exchange is appended,
/// redacted, to a JSON Lines recording as it completes. Requests are served on the HTTP
/// server's connection threads; nothing blocks the concurrency pool.
public final class RecordingProxy: Sendable {
    /// The configuration it runs with.
    public let configuration: RecorderConfiguration
    let server: HTTPServer
    let writer: RecordingWriter
    let client: CurlStreamingClient
    let redactor: Redactor
    let started = ContinuousClock.now
    let counters = Mutex(RecorderStatistics())
    let queue: RecordingQueue

    private init(
        configuration: RecorderConfiguration, server: HTTPServer, writer: RecordingWriter, client: CurlStreamingClient, redactor: Redactor
    ) {
        self.configuration = configuration
        self.server = server
        self.writer = writer
        self.client = client
        self.redactor = redactor
        queue = RecordingQueue(budget: max(64 * 1024 * 1024, configuration.recordedBodyLimit * 4))
    }

    /// Creates the recording, binds the listener and starts forwarding.
    /// - Parameter configuration: upstream, address, file and policy.
    /// - Returns: the running proxy.
    /// - Throws: `RecorderError` when the file, the upstream client or the listener cannot be set up.
    public static func start(_ configuration: RecorderConfiguration) throws(RecorderError) -> RecordingProxy {
        let client: CurlStreamingClient
        do { client = try CurlStreamingClient(maximumIdle: configuration.maxConnections) } catch {
            throw RecorderError.client(error.description)
        }
        let header = RecordingHeader(
            tool: configuration.tool, startedAt: Date().ISO8601Format(), upstream: configuration.upstreamHost,
            redaction: configuration.redaction.json)
        let writer: RecordingWriter
        do { writer = try RecordingWriter(path: configuration.output, header: header) } catch {
            throw RecorderError.recording(error.description)
        }
        var http = HTTPServerConfiguration(
            host: configuration.listen.host, port: configuration.listen.port,
            limits: HTTPLimits(body: configuration.requestBodyLimit), readTimeout: configuration.readTimeout, idleTimeout: .seconds(60),
            writeTimeout: .seconds(30), maxConnections: configuration.maxConnections, gracePeriod: configuration.gracePeriod)
        http.errorResponse = HTTPResponse.plain
        let box = ProxyBox()
        let server: HTTPServer
        do {
            server = try HTTPServer.start(http) { request, stream in box.proxy?.forward(request, to: stream) }
        } catch {
            writer.close()
            throw RecorderError.listen("\(configuration.listen): \(error)")
        }
        let proxy = RecordingProxy(
            configuration: configuration, server: server, writer: writer, client: client,
            redactor: Redactor(policy: configuration.redaction))
        proxy.queue.start { capture in proxy.record(capture) }
        box.proxy = proxy
        return proxy
    }

    /// The address actually bound.
    public var endpoint: HTTPEndpoint { server.endpoint }

    /// Counts so far: exchanges recorded, distinct clients, open connections, errors.
    public var statistics: RecorderStatistics {
        var snapshot = counters.withLock { $0 }
        snapshot.openConnections = server.connectionCount
        snapshot.recorded = writer.written
        return snapshot
    }

    /// The first failure to write the recording, if any (the proxy keeps forwarding).
    public var recordingFailure: RecordingWriteError? { writer.failure }

    /// Stops listening, lets exchanges in flight finish within the grace period, then records
    /// and writes what is queued, syncs and closes the recording.
    public func stop() async {
        await server.stop()
        queue.drain()
        writer.close()
    }
}

/// Hands the proxy to the server's handler, which is made before the proxy exists.
final class ProxyBox: Sendable {
    private let slot = Mutex<RecordingProxy?>(nil)

    var proxy: RecordingProxy? {
        get { slot.withLock { $0 } }
        set { slot.withLock { $0 = newValue } }
    }
}

/// What a recording proxy has done so far.
public struct RecorderStatistics: Sendable, Hashable {
    /// Exchanges answered (recorded or being recorded).
    public var exchanges = 0
    /// Exchanges written to the recording.
    public var recorded = 0
    /// Distinct clients seen (client id, else user, else peer address).
    public var clients = 0
    /// Client connections open now.
    public var openConnections = 0
    /// Upstream failures, clients gone mid-answer, and recording failures.
    public var errors = 0
    var clientIDs: Set<String> = []

    /// One line for a status display.
    public var line: String {
        "\(exchanges) exchanges, \(clients) clients, \(openConnections) connections, \(errors) errors"
    }
}
