import Corpus
import Foundation
import KizunaWire
import PostgRESTTarget
import PostgresTarget
import PowerSyncHTTP
import ReferencePowerSync
import ReferenceServer
import Runner
import ServerContract

/// Turns `--server <target>` into a factory of isolated targets, one per case.
enum TargetChoice {
    /// True for a target that is one shared server, so cases must take turns (each seed resets it).
    static func isShared(_ server: String) -> Bool { server != "embedded" }

    static func factory(for server: String, jwtSecret: String?, apiKey: String?, postgresConfig: String? = nil) async throws(RunError)
        -> ServerRun.TargetFactory
    {
        switch server {
        case let backend where backend.hasPrefix(checkpointBackendPrefix):
            return { () throws(TargetError) -> any ServerTarget in
                throw TargetError.refused(
                    "\(backend) is a PowerSync checkpoint backend: it plays PowerSync cases' checkpoint requests only")
            }
        case "embedded":
            return { () throws(TargetError) -> any ServerTarget in
                do {
                    return try ReferenceServer()
                } catch {
                    throw TargetError.refused("the embedded reference server did not start: \(error)")
                }
            }
        case let url where url.hasPrefix("http://") || url.hasPrefix("https://"):
            guard let secret = jwtSecret ?? ProcessInfo.processInfo.environment["ACCORD_JWT_SECRET"], !secret.isEmpty else {
                throw RunError.usage(
                    "--server \(url): the runner mints JWTs with the server's secret; pass --jwt-secret or set ACCORD_JWT_SECRET")
            }
            return { () throws(TargetError) -> any ServerTarget in try HTTPTarget(baseURL: url, secret: secret, apiKey: apiKey) }
        case let url where url.hasPrefix("postgres://") || url.hasPrefix("postgresql://"):
            let config = try postgresConfiguration(postgresConfig)
            let sessions = PostgresTarget.Sessions()
            do throws(PostgresError) {
                try await PostgresTarget(url: url, config: config, sessions: sessions).check()
            } catch {
                throw RunError.setup(
                    "--server \(PostgresTarget.withoutPassword(url)): \(error)",
                    fix: "start the database, install the KizunaSync pack (accord postgres-init), or fix the URL")
            }
            return { () throws(TargetError) -> any ServerTarget in PostgresTarget(url: url, config: config, sessions: sessions) }
        default:
            throw RunError.usage(
                "--server takes 'embedded', an http(s) URL or a postgres:// URL, found '\(server)'\nSee 'accord help run'.")
        }
    }

    /// The PowerSync target for `--server`: a fresh embedded service per case, or the service
    /// behind an http(s) URL (reset before each case); nil for a target that serves no
    /// PowerSync profile (a postgres:// URL).
    /// - Parameters:
    ///   - server: the `--server` value.
    ///   - jwtSecret: `--jwt-secret` (default: $ACCORD_JWT_SECRET), for a URL.
    /// - Returns: the factory, or nil.
    static func powerSyncFactory(for server: String, jwtSecret: String? = nil, backendToken: String? = nil) throws(RunError)
        -> PowerSyncServerLane.TargetFactory?
    {
        if server == "embedded" { return embeddedPowerSync(faults: []) }
        if server.hasPrefix(checkpointBackendPrefix) {
            let url = String(server.dropFirst(checkpointBackendPrefix.count))
            guard url.hasPrefix("http://") || url.hasPrefix("https://") else {
                throw RunError.usage("--server \(checkpointBackendPrefix)<URL> takes an http(s) URL, found '\(url)'")
            }
            guard let token = backendToken ?? ProcessInfo.processInfo.environment["ACCORD_BACKEND_TOKEN"], !token.isEmpty else {
                throw RunError.usage("--server \(server): pass the app's credential for it with --backend-token or ACCORD_BACKEND_TOKEN")
            }
            // Each case's clients are new to the backend: its stored ids of other cases and runs do not leak in.
            return { () throws(TargetError) -> any PowerSyncTarget in
                try PowerSyncCheckpointBackendTarget(url: url, token: token, run: UUID().uuidString.prefix(8).lowercased())
            }
        }
        guard server.hasPrefix("http://") || server.hasPrefix("https://"),
            let secret = jwtSecret ?? ProcessInfo.processInfo.environment["ACCORD_JWT_SECRET"], !secret.isEmpty
        else { return nil }
        return { () throws(TargetError) -> any PowerSyncTarget in try PowerSyncHTTPTarget(baseURL: server, secret: secret) }
    }

    /// The `--server` prefix of a PowerSync app's custom checkpoint backend.
    static let checkpointBackendPrefix = "checkpoint-backend+"

    /// A fresh embedded PowerSync service per case, with seeded faults (the self-test's).
    /// - Parameter faults: the faults.
    /// - Returns: the factory.
    static func embeddedPowerSync(faults: Set<PowerSyncFault>) -> PowerSyncServerLane.TargetFactory {
        { () throws(TargetError) -> any PowerSyncTarget in
            do throws(PowerSyncServiceError) {
                return EmbeddedPowerSync(service: try PowerSyncService(faults: faults))
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
