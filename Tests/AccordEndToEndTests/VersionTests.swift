import Foundation
import Testing

/// `accord --version`: the version from the repo's VERSION file and the commit the binary was
/// built from, stamped at build time (scripts/build-stamp).
@Suite("accord --version")
struct VersionTests {
    @Test("accord --version prints the VERSION file's version and a commit of 12 hex digits, -dirty, or unknown")
    func versionLine() async throws {
        let version = try String(contentsOfFile: AccordBinary.packageRoot + "/VERSION", encoding: .utf8)
            .trimmingCharacters(in: .whitespacesAndNewlines)
        let result = try await AccordBinary.run(["--version"])
        #expect(result.status == 0)
        let line = result.stdout.trimmingCharacters(in: .newlines)
        let prefix = "accord \(version) (commit "
        #expect(line.hasPrefix(prefix) && line.hasSuffix(")"), "\(line)")
        let commit = String(line.dropFirst(prefix.count).dropLast())
        let hex = commit.hasSuffix("-dirty") ? String(commit.dropLast(6)) : commit
        #expect(commit == "unknown" || (hex.count == 12 && hex.allSatisfy(\.isHexDigit)), "\(line)")
    }
}
