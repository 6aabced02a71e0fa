import Corpus
import Dispatch
import Foundation
import HTTP
import Harness
import JSON
import Lanes
import PowerSyncWire
import ReferencePowerSync
import ReferenceServer
import Serve

enum ServeCommand: Command {
    static let spec = CommandSpec(
        name: "serve",
        abstract: "Serve the reference server over the PostgREST surface (rpc/pull, rpc/push), or the PowerSync service.",
        discussion: """
            Binds 127.0.0.1 unless --listen names another address. JWTs are HS256, verified with
            --jwt-secret or $ACCORD_JWT_SECRET; claims sub = user, session_id = client. --fixtures opens
            the fixture endpoint of docs/server-contract.md, on a loopback listener only. Stops on SIGINT
            or SIGTERM. --profile powersync serves the embedded PowerSync-shaped service instead
            (POST /sync/stream as NDJSON, GET /write-checkpoint2.json, POST /sync/checkpoint-request; the
            JWT's sub names the user; --fixtures opens /accord/powersync/..., docs/powersync.md).
            --fault seeds one of the self-test's server faults (repeatable), to see what Accord reports
            for a broken server:

            """ + ServerFault.allCases.map { HelpText.row($0.rawValue, "breaks \($0.rule)") }.joined(separator: "\n"),
        arguments: [],
        options: [
            OptionSpec(.listen, value: "host:port", help: "The address to bind (default 127.0.0.1:54321; port 0 picks one)."),
            OptionSpec(.db, value: "file", help: "The SQLite database file (default: in memory)."),
            OptionSpec(.jwtSecret, value: "secret", help: "The HS256 secret (default: $ACCORD_JWT_SECRET)."),
            OptionSpec(flag: .fixtures, help: "Open the fixture endpoint (loopback only)."),
            OptionSpec(.domain, value: "file", help: "Tables to serve, in the fixtures/domain.json shape (default: the corpus domain)."),
            OptionSpec(.profile, value: "profile", help: "The protocol to serve: 'kizunasync' (default) or 'powersync'."),
            OptionSpec(.fault, value: "name", help: "Seed the named server fault (repeatable; listed above).", repeatable: true),
        ])

    static func run(_ arguments: ParsedArguments, console: Console) async throws -> Int32 {
        let listen = arguments.value(.listen) ?? "127.0.0.1:54321"
        guard let endpoint = HTTPEndpoint(listen: listen) else {
            throw RunError.usage("--listen takes HOST:PORT (e.g. 127.0.0.1:0), found '\(listen)'")
        }
        guard let secret = arguments.value(.jwtSecret) ?? ProcessInfo.processInfo.environment["ACCORD_JWT_SECRET"], !secret.isEmpty
        else {
            throw RunError.usage("no JWT secret: pass --jwt-secret or set ACCORD_JWT_SECRET")
        }
        let fixtures = arguments.has(.fixtures)
        if fixtures && !endpoint.isLoopback {
            throw RunError.usage("--fixtures opens the fixture endpoint on loopback listeners only; \(endpoint) is not one")
        }
        if try arguments.value(.profile, as: .profile) == .powerSync {
            if arguments.has(.domain) { throw RunError.usage("--domain applies to --profile kizunasync only") }
            if arguments.has(.fault) { throw RunError.usage("--fault applies to --profile kizunasync only") }
            return try await powerSync(arguments, endpoint: endpoint, key: JWTKey(secret: secret), fixtures: fixtures, console: console)
        }
        var domain = ReferenceDomain.corpus
        if let path = arguments.value(.domain) {
            do {
                domain = try ReferenceDomain(json: try JSONParser.parse(try FileBytes.read(path)))
            } catch {
                throw RunError.usage("\(path): not a domain file: \(error)")
            }
        }
        let faults = try SeededFaults.parse(arguments.values(.fault), as: ServerFault.self, command: spec.name)
        let server: ReferenceServer
        do { server = try ReferenceServer(path: arguments.value(.db), domain: domain, faults: faults) } catch {
            throw RunError.unavailable("the reference server did not start: \(error)")
        }
        return try await serveUntilInterrupt(endpoint: endpoint, profile: "", fixtures: fixtures, console: console) { configuration in
            try PostgRESTRouter(target: server, key: JWTKey(secret: secret), fixtures: fixtures).serve(configuration)
        }
    }

    /// `--profile powersync`: the embedded PowerSync service behind its router until SIGINT.
    private static func powerSync(_ arguments: ParsedArguments, endpoint: HTTPEndpoint, key: JWTKey, fixtures: Bool, console: Console)
        async throws -> Int32
    {
        let service: PowerSync.Service
        do { service = try PowerSync.Service(path: arguments.value(.db)) } catch {
            throw RunError.unavailable("the PowerSync service did not start: \(error)")
        }
        return try await serveUntilInterrupt(
            endpoint: endpoint, profile: " (profile powersync)", fixtures: fixtures, console: console,
            serve: { configuration in try PowerSync.Router(service: service, key: key, fixtures: fixtures).serve(configuration) },
            beforeStop: { await service.shutDown() })
    }

    /// Listens on the endpoint until SIGINT, then runs `beforeStop` and stops the listener.
    /// - Parameters:
    ///   - endpoint: where to listen.
    ///   - profile: what the listening line says after the URL, e.g. " (profile powersync)".
    ///   - fixtures: whether the fixture endpoint is open, for the listening line.
    ///   - console: where the listening and stopped lines go.
    ///   - serve: starts the router's listener on the configuration.
    ///   - beforeStop: what to shut down before the listener stops.
    /// - Returns: the success exit code.
    private static func serveUntilInterrupt(
        endpoint: HTTPEndpoint, profile: String, fixtures: Bool, console: Console,
        serve: (HTTPServerConfiguration) throws -> HTTPServer, beforeStop: () async -> Void = {}
    ) async throws -> Int32 {
        var configuration = HTTPServerConfiguration()
        configuration.host = endpoint.host
        configuration.port = endpoint.port
        // A proxy or a load generator in front may hold a connection per client of its own.
        configuration.maxConnections = 256
        let listener: HTTPServer
        do { listener = try serve(configuration) } catch {
            throw RunError.unavailable("cannot listen on \(endpoint): \(error)")
        }
        let interrupt = Interrupt.arm()
        console.out("accord serve: listening on http://\(listener.endpoint)\(profile)\(fixtures ? " (fixture endpoint open)" : "")")
        await interrupt.wait()
        await beforeStop()
        await listener.stop()
        console.out("accord serve: stopped")
        return ExitCode.success
    }
}
