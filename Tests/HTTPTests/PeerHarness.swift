import Foundation
import HTTP
import Serve
import ServerContract

/// A router on a real loopback server with a recording stub target, for peer tests.
struct PeerHarness {
    let server: HTTPServer
    let stub: StubTarget
    let key = JWTKey(secret: "peer-secret")

    init(fixtures: Bool = true, configure: (inout HTTPServerConfiguration) -> Void = { _ in }) throws {
        var configuration = HTTPServerConfiguration(readTimeout: .seconds(5), gracePeriod: .milliseconds(500))
        configure(&configuration)
        let stub = StubTarget()
        self.stub = stub
        server = try PostgRESTRouter(target: stub, key: key, fixtures: fixtures).serve(configuration)
    }

    var base: String { "http://127.0.0.1:\(server.port)" }

    var token: String { key.mint(for: Identity(user: "peer-user", session: "peer-client")) }

    /// curl arguments for an RPC with the usual PostgREST headers.
    func rpcArguments(_ function: String, token: String?) -> [String] {
        var arguments = [
            "-X", "POST", "\(base)/rest/v1/rpc/\(function)", "-H", "Content-Type: application/json", "-H", "Content-Profile: kizunasync",
            "-o", "-", "-w", "\n%{http_code}",
        ]
        if let token { arguments += ["-H", "Authorization: Bearer \(token)"] }
        return arguments
    }

    /// Splits curl output written with `-w "\n%{http_code}"` into body and status.
    static func bodyAndStatus(_ output: String) -> (body: String, status: Int?) {
        guard let newline = output.lastIndex(of: "\n") else { return ("", Int(output)) }
        return (String(output[..<newline]), Int(output[output.index(after: newline)...]))
    }

    /// Python that sends raw bytes on one connection and prints everything the server sends back.
    static func rawExchange(port: UInt16, chunks: [String], pause: Double = 0, readTimeout: Double = 10) -> String {
        let literal = chunks.map { "bytes.fromhex('\(Array($0.utf8).map { String(format: "%02x", $0) }.joined())')" }.joined(
            separator: ", ")
        return """
            import select, socket, sys, time
            s = socket.create_connection(('127.0.0.1', \(port)), timeout=\(readTimeout))
            out = b''
            for chunk in [\(literal)]:
                r, _, _ = select.select([s], [], [], \(pause))
                if r:
                    break
                try:
                    s.sendall(chunk)
                except OSError:
                    break
            try:
                while True:
                    data = s.recv(65536)
                    if not data:
                        break
                    out += data
            except OSError:
                pass
            sys.stdout.write(out.decode('latin-1'))
            """
    }
}
