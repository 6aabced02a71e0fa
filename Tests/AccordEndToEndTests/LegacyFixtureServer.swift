import HTTP
import KizunaWire
import ReferenceServer
import Serve
import ServerContract

/// A correct server as teams have them in the wild, served over HTTP on loopback: its fixture
/// endpoint predates the capabilities call (it takes only POST, so the probe `GET
/// /accord/fixtures/capabilities` is answered 405 with `Allow: POST`) and answers a seed with a
/// bare 204, and its sequence was never reset, so its seqs start 100 above the seed's `next_seq`.
/// Everything else is the reference server behind `PostgRESTRouter`.
struct LegacyFixtureServer {
    let server: HTTPServer

    /// The seqs this server's sequence runs ahead by.
    static let offset: UInt64 = 100

    init(secret: String) throws {
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let router = PostgRESTRouter(target: SequenceAhead(try ReferenceServer()), key: JWTKey(secret: secret), fixtures: true)
        configuration.errorResponse = PostgRESTReply.refusal
        server = try HTTPServer.start(configuration) { request in
            switch request.path {
            case "/accord/fixtures/capabilities":
                var response = PostgRESTReply.error(status: 405, code: "PGRST117", "Unsupported HTTP method: \(request.method)")
                response.headers.add("Allow", "POST")
                return response
            case "/accord/fixtures/seed":
                let answer = await router.handle(request)
                return (200..<300).contains(answer.status) ? HTTPResponse(status: 204) : answer
            default:
                return await router.handle(request)
            }
        }
    }

    var url: String { "http://127.0.0.1:\(server.port)" }

    func stop() async { await server.stop() }
}

/// The reference server seeded `LegacyFixtureServer.offset` seqs later than asked.
private actor SequenceAhead: ServerTarget {
    private let inner: ReferenceServer

    init(_ inner: ReferenceServer) { self.inner = inner }

    func capabilities() async throws(TargetError) -> TargetCapabilities { .undeclared }

    func seed(_ seed: Seed) async throws(TargetError) -> SeedReceipt {
        var ahead = seed
        if let next = UInt64(seed.nextSeq.text) { ahead.nextSeq = SequenceNumber(next + LegacyFixtureServer.offset) }
        return try await inner.seed(ahead)
    }

    func setStep(_ step: Int) async throws(TargetError) { try await inner.setStep(step) }

    func apply(_ change: FixtureChange, heldIn transaction: String?) async throws(TargetError) {
        try await inner.apply(change, heldIn: transaction)
    }

    func commit(transaction: String) async throws(TargetError) { try await inner.commit(transaction: transaction) }

    func pull(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply { try await inner.pull(body, as: identity) }

    func push(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply { try await inner.push(body, as: identity) }
}
