import Foundation
import Testing

/// The README's first command needs nothing beside this checkout (issue 26): Accord's own cases
/// and recordings pass against the embedded server.
@Suite("the repo alone")
struct RepoAloneTests {
    @Test("accord run --server embedded Conformance Recordings/*.jsonl passes, read from the repo only")
    func readmeFirstCommand() async throws {
        let root = AccordBinary.packageRoot
        let recordings = try FileManager.default.contentsOfDirectory(atPath: root + "/Recordings").filter { $0.hasSuffix(".jsonl") }
            .sorted()
        #expect(!recordings.isEmpty)
        let junit = try AccordBinary.temporaryFolder().appendingPathComponent("accord-junit.xml").path
        let result = try await AccordBinary.run(
            ["run", "--server", "embedded", root + "/Conformance"] + recordings.map { root + "/Recordings/" + $0 } + ["--junit", junit])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(" 0 failed"), "\(result.stdout)")
        #expect(FileManager.default.fileExists(atPath: junit))
    }
}
