import Harness
import ServerContract

extension ServerRun {
    /// Checks the target before the first case: that one can be made, and for a target that checks
    /// its own setup (`TargetPreflight`: a URL target answers, has its fixture endpoint on and takes
    /// the runner's JWT), that it passes.
    /// - Parameters:
    ///   - makeTarget: the run's target factory.
    ///   - name: the target's name, for the message.
    /// - Throws: `RunError.setup` for a target that cannot be tested as set up.
    static func preflight<Target>(_ makeTarget: () throws(TargetError) -> Target, name: String) async throws(RunError) {
        let target: Target
        do throws(TargetError) {
            target = try makeTarget()
        } catch {
            throw RunError.setup("the target \(name) cannot be made: \(error)", fix: "check --server and its options")
        }
        guard let checked = target as? any TargetPreflight else { return }
        do throws(SetupProblem) {
            try await checked.preflight()
        } catch {
            throw RunError.setup(error.problem, fix: error.fix)
        }
    }
}
