import Foundation
import HTTP
import Synchronization

/// A loopback stand-in for PowerSync's service and an app backend in the client's unit tests:
/// it answers each request with the next scripted answer for its path and keeps what it saw.
/// Answered on the connection's thread, not the concurrency pool other tests keep busy.
final class ScriptedService: Sendable {
    /// One request as seen: method, path with query, Authorization and body.
    struct Seen: Sendable, Equatable {
        var method: String
        var target: String
        var authorization: String
        var body: String
    }

    private final class Script: Sendable {
        let answers: Mutex<[String: [String]]>
        let seen = Mutex<[Seen]>([])
        init(_ answers: [String: [String]]) { self.answers = Mutex(answers) }
    }

    private let script: Script
    private let server: HTTPServer
    let baseURL: String

    /// Starts a service answering `answers[path]` in order (a JSON or NDJSON body, status 200);
    /// a path with no answer left gets 404.
    init(_ answers: [String: [String]]) throws {
        let script = Script(answers)
        self.script = script
        server = try HTTPServer.start(HTTPServerConfiguration(host: "127.0.0.1", port: 0, gracePeriod: .milliseconds(100))) {
            request, stream in
            script.seen.withLock {
                $0.append(
                    Seen(
                        method: request.method, target: request.target, authorization: request.headers["Authorization"] ?? "",
                        body: String(decoding: request.body, as: UTF8.self)))
            }
            let next = script.answers.withLock { script -> String? in
                guard var queue = script[request.path], !queue.isEmpty else { return nil }
                let first = queue.removeFirst()
                script[request.path] = queue
                return first
            }
            guard let next else {
                _ = stream.respond(HTTPResponse.text(status: 404, "no scripted answer for \(request.path)"))
                return
            }
            let type = request.path == "/sync/stream" ? "application/x-ndjson" : "application/json"
            _ = stream.respond(HTTPResponse(status: 200, headers: ["Content-Type": type], body: Array(next.utf8)))
        }
        baseURL = "http://127.0.0.1:\(server.port)"
    }

    /// The requests seen so far.
    var requests: [Seen] { script.seen.withLock { $0 } }

    func stop() async { await server.stop() }

    /// A fresh store path and its removal.
    static func store(_ name: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("accord-\(name)-\(UUID().uuidString).db").path
    }

    static func remove(_ store: String) {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: store + suffix) }
    }
}
