import HTTP
import Harness
import Synchronization

/// How a client lane serves its mock (the PostgREST surface, the PowerSync service) and starts the
/// driver against it: the one owner of the loopback server setup and of stopping the mock when the
/// driver does not start.
enum LaneMockServer {
    /// Starts an HTTP server on 127.0.0.1 at a free port and the mock that answers its requests;
    /// a request that arrives before the mock exists is answered 503 "starting".
    /// - Parameters:
    ///   - name: the mock's name for the error, e.g. "the client lane's mock server".
    ///   - answer: how the mock answers a request.
    ///   - make: builds the mock around the running server and its base URL.
    /// - Returns: the mock.
    /// - Throws: `RunError` (usage) when no port can be bound.
    static func start<Mock: Sendable>(
        _ name: String, answer: @escaping @Sendable (Mock, HTTPRequest) -> HTTPResponse,
        make: (_ server: HTTPServer, _ baseURL: String) -> Mock
    ) throws(RunError) -> Mock {
        let box = Mutex<Mock?>(nil)
        let configuration = HTTPServerConfiguration(host: "127.0.0.1", port: 0, gracePeriod: .milliseconds(100))
        let server: HTTPServer
        do {
            // Answered on the connection's own thread: a mock never waits for a concurrency-pool
            // thread, which the run's own cases may all be holding.
            server = try HTTPServer.start(configuration) { request, stream in
                guard let mock = box.withLock({ $0 }) else {
                    _ = stream.respond(HTTPResponse.text(status: 503, "starting"))
                    return
                }
                _ = stream.respond(answer(mock, request))
            }
        } catch {
            throw RunError.usage("\(name) did not start: \(error)")
        }
        let mock = make(server, "http://127.0.0.1:\(server.port)")
        box.withLock { $0 = mock }
        return mock
    }

    /// Starts the driver of a case whose mock is up; when the driver does not start, the mock is
    /// stopped before the error is thrown on.
    /// - Parameters:
    ///   - launch: starts the driver.
    ///   - stop: stops the mock.
    /// - Returns: the driver's channel.
    /// - Throws: the launcher's `RunError`.
    static func launch(_ launch: DriverLauncher, orStop stop: () async -> Void) async throws(RunError) -> any DriverChannel {
        do throws(RunError) {
            return try launch()
        } catch {
            await stop()
            throw error
        }
    }
}
