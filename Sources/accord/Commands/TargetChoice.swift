import ReferenceServer
import Runner
import ServerContract

/// Turns `--server <target>` into a factory of isolated targets, one per case.
enum TargetChoice {
    static func factory(for server: String) throws(RunError) -> ServerRun.TargetFactory {
        switch server {
        case "embedded":
            return { () throws(TargetError) -> any ServerTarget in
                do {
                    return try ReferenceServer()
                } catch {
                    throw TargetError.refused("the embedded reference server did not start: \(error)")
                }
            }
        default:
            throw RunError.usage(
                "--server \(server): this build runs the server lane against 'embedded'; server URLs arrive with the HTTP target\nSee 'accord help run'."
            )
        }
    }
}
