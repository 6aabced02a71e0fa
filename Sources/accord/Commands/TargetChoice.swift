import Foundation
import ReferenceServer
import Runner
import ServerContract

/// Turns `--server <target>` into a factory of isolated targets, one per case.
enum TargetChoice {
    static func factory(for server: String, jwtSecret: String?, apiKey: String?) throws(RunError) -> ServerRun.TargetFactory {
        switch server {
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
        default:
            throw RunError.usage("--server takes 'embedded' or an http(s) URL, found '\(server)'\nSee 'accord help run'.")
        }
    }
}
