import Corpus
import Foundation
import HTTPTargets
import Harness
import JSON
import KizunaWire
import Lanes
import PostgresTarget
import PowerSyncWire
import ReferencePowerSync
import ReferenceServer
import ServerContract

/// Turns a `--server` target (`ServerTargetSpec`) into a factory of isolated targets, one per case.
enum TargetChoice {
    static func factory(for server: ServerTargetSpec, jwtSecret: String?, apiKey: String?, postgresConfig: String? = nil)
        async throws(RunError) -> KizunaSync.TargetFactory
    {
        switch server {
        case .checkpointBackend:
            return { () throws(TargetError) -> any KizunaSync.ServerTarget in
                throw TargetError.refused(
                    "\(server) is a PowerSync checkpoint backend: it plays PowerSync cases' checkpoint requests only")
            }
        case .embedded:
            return embedded()
        case .http(let url):
            guard let secret = jwtSecret ?? ProcessInfo.processInfo.environment["ACCORD_JWT_SECRET"], !secret.isEmpty else {
                throw RunError.usage(
                    "--server \(url): the runner mints JWTs with the server's secret; pass --jwt-secret or set ACCORD_JWT_SECRET")
            }
            return { () throws(TargetError) -> any KizunaSync.ServerTarget in
                try KizunaSync.HTTPTarget(baseURL: url, secret: secret, apiKey: apiKey)
            }
        case .postgres(let url):
            let config = try postgresConfiguration(postgresConfig)
            let sessions = PostgresTarget.Sessions()
            do throws(PostgresError) {
                try await PostgresTarget(url: url, config: config, sessions: sessions).check()
            } catch {
                throw RunError.setup(
                    "--server \(PostgresTarget.withoutPassword(url)): \(error)",
                    fix: "start the database, install the KizunaSync pack (accord postgres-init), or fix the URL")
            }
            return { () throws(TargetError) -> any KizunaSync.ServerTarget in PostgresTarget(url: url, config: config, sessions: sessions) }
        }
    }

    /// The target of `accord explore` and `accord shrink`: `--server` with its URL options, or the
    /// embedded reference server with `--fault`'s seeded faults (embedded only).
    static func factory(for server: ServerTargetSpec, faults: Set<ServerFault>, _ arguments: ParsedArguments) async throws(RunError)
        -> KizunaSync.TargetFactory
    {
        guard !faults.isEmpty else {
            return try await factory(
                for: server, jwtSecret: arguments.value(.jwtSecret), apiKey: arguments.value(.apikey),
                postgresConfig: arguments.value(.postgresConfig))
        }
        guard server == .embedded else { throw RunError.usage("--fault seeds the embedded reference server: give --server embedded") }
        return embedded(faults: faults)
    }

    /// A fresh embedded reference server per call, with seeded faults and a way of numbering a
    /// write that changes nothing.
    static func embedded(faults: Set<ServerFault> = [], noOpWrites: TargetCapabilities.NoOpWrites = .stamped) -> KizunaSync.TargetFactory {
        { () throws(TargetError) -> any KizunaSync.ServerTarget in
            do { return try ReferenceServer(faults: faults, noOpWrites: noOpWrites) } catch {
                throw TargetError.refused("the embedded reference server did not start: \(error)")
            }
        }
    }

    /// The PowerSync target for `--server`: a fresh embedded service per case, the service behind
    /// an http(s) URL (reset before each case), or an app's checkpoint backend; nil for a target
    /// that serves no PowerSync profile (a postgres:// URL, or a URL without a JWT secret).
    static func powerSyncFactory(for server: ServerTargetSpec, jwtSecret: String? = nil, backendToken: String? = nil) throws(RunError)
        -> PowerSync.TargetFactory?
    {
        switch server {
        case .embedded:
            return embeddedPowerSync(faults: [])
        case .checkpointBackend(let url):
            guard let token = backendToken ?? ProcessInfo.processInfo.environment["ACCORD_BACKEND_TOKEN"], !token.isEmpty else {
                throw RunError.usage("--server \(server): pass the app's credential for it with --backend-token or ACCORD_BACKEND_TOKEN")
            }
            // Each case's clients are new to the backend: its stored ids of other cases and runs do not leak in.
            return { () throws(TargetError) -> any PowerSync.ServerTarget in
                try PowerSync.CheckpointBackendTarget(url: url, token: token, run: UUID().uuidString.prefix(8).lowercased())
            }
        case .http(let url):
            guard let secret = jwtSecret ?? ProcessInfo.processInfo.environment["ACCORD_JWT_SECRET"], !secret.isEmpty else { return nil }
            return { () throws(TargetError) -> any PowerSync.ServerTarget in try PowerSync.HTTPTarget(baseURL: url, secret: secret) }
        case .postgres:
            return nil
        }
    }

    /// A fresh embedded PowerSync service per case, with seeded faults (the self-test's).
    /// - Returns: the factory.
    static func embeddedPowerSync(faults: Set<PowerSync.ServiceFault>) -> PowerSync.TargetFactory {
        { () throws(TargetError) -> any PowerSync.ServerTarget in
            do throws(PowerSync.ServiceError) {
                return PowerSync.EmbeddedTarget(service: try PowerSync.Service(faults: faults))
            } catch {
                throw TargetError.refused("the embedded PowerSync service did not start: \(error)")
            }
        }
    }

    /// The `--postgres-config` file, or Accord's corpus domain.
    static func postgresConfiguration(_ path: String?) throws(RunError) -> TargetConfig {
        guard let path else { return .corpus }
        let json: JSONValue
        do throws(CorpusError) {
            let bytes = try FileBytes.read(path)
            do { json = try JSONParser.parse(bytes) } catch { throw CorpusError.invalidJSON(path, error) }
        } catch {
            throw RunError.input(error)
        }
        do throws(PostgresError) {
            return try TargetConfig(json: json, file: path)
        } catch {
            throw RunError.usage("--postgres-config \(error)")
        }
    }
}
