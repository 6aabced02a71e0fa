import AccordTestSupport
import Foundation
import Testing

/// `scripts/test` from a checkout with no shared corpus beside it (issue 37): one line naming what
/// to link, exit 78, before any build.
@Suite("scripts/test without ../shared")
struct TestScriptTests {
    @Test("a checkout with no ../shared stops at once with one line naming it, exit 78; one with a partial ../shared names what it lacks")
    func stopsWithoutShared() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let repo = folder.appendingPathComponent("repo")
        try FileManager.default.createDirectory(at: repo.appendingPathComponent("scripts"), withIntermediateDirectories: true)
        let script = repo.appendingPathComponent("scripts/test").path
        try FileManager.default.copyItem(atPath: AccordBinary.packageRoot + "/scripts/test", toPath: script)
        let bare = try await PeerProcess.run("/bin/bash", [script], timeout: 20)
        #expect(bare.status == 78, "\(bare.stderr)")
        let lines = bare.stderr.split(separator: "\n")
        #expect(lines.count == 1 && lines.first?.contains("it lacks ../shared: clone or link it there") == true, "\(bare.stderr)")
        try FileManager.default.createDirectory(
            at: folder.appendingPathComponent("shared/kizunasync-protocol"), withIntermediateDirectories: true)
        let partial = try await PeerProcess.run("/bin/bash", [script], timeout: 20)
        #expect(partial.status == 78)
        #expect(
            partial.stderr.contains("../shared/kizunasync-sql") && !partial.stderr.contains("../shared/kizunasync-protocol "),
            "\(partial.stderr)")
    }
}
