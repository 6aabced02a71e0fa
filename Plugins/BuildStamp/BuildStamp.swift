import Foundation
import PackagePlugin

/// Stamps the AccordVersion module with the version (the VERSION file) and the git commit,
/// before every build, by running scripts/build-stamp. The script rewrites its output only when
/// the stamp changes, so a build with nothing new recompiles nothing.
@main
struct BuildStamp: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) throws -> [Command] {
        let root = context.package.directoryURL
        let output = context.pluginWorkDirectoryURL.appending(path: "Stamp")
        return [
            .prebuildCommand(
                displayName: "Stamping the version and commit",
                executable: URL(fileURLWithPath: "/bin/sh"),
                arguments: [root.appending(path: "scripts/build-stamp").path, root.path, output.path],
                outputFilesDirectory: output)
        ]
    }
}
