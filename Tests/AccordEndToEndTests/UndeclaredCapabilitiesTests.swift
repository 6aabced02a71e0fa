import AccordTestSupport
import Foundation
import Testing

/// A correct server that declares nothing (its fixture endpoint answers the capabilities probe 405)
/// and whose seqs start 100 above every seed's `next_seq` (`Tests/Fixtures/legacy-fixture-server.py`,
/// an adapter in front of `accord serve`) is judged by order and bijection, so the whole shared
/// corpus passes against it over HTTP. Before, the 405 failed every case's seed, and a 404 made
/// the runner assume dense numbering: 87 test cases failed with "this server's numbering runs
/// ahead of the golden one".
@Suite("a server that declares no capabilities")
struct UndeclaredCapabilitiesTests {
    @Test("405 on the probe and seqs 100 ahead: the whole shared corpus passes at tier bound with no finding")
    func legacyServerPasses() async throws {
        let secret = "legacy-fixture-secret"
        let adapter = ChildProcess()
        adapter.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        adapter.arguments = [
            "python3", AccordBinary.packageRoot + "/Tests/Fixtures/legacy-fixture-server.py", "--accord", AccordBinary.path, "--secret",
            secret,
        ]
        let output = Pipe()
        adapter.standardOutput = output
        adapter.standardError = FileHandle.nullDevice
        try adapter.run()
        defer {
            adapter.terminate()
            adapter.waitUntilExit()
        }
        var line: [UInt8] = []
        while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != 0x0A { line.append(byte) }
        let url = try #require(String(decoding: line, as: UTF8.self).split(separator: " ").last.map(String.init))
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("report.xml").path
        let result = try await AccordBinary.run([
            "run", "--server", url, "--jwt-secret", secret, AccordBinary.sharedCorpus,
            "--scenarios", AccordBinary.packageRoot + "/../shared/corpus-scenarios.json", "--junit", junit,
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(" 0 failed"), "\(result.stdout)")
        let report = try JUnitCases(try Data(contentsOf: URL(fileURLWithPath: junit)))
        let failed = report.cases.filter { !$0.failures.isEmpty || $0.errored != nil }
        #expect(failed.isEmpty, "\(failed.prefix(3))")
        let tiers = report.properties.values.compactMap { $0["tier"] }
        #expect(tiers.count >= 38, "one tier per case suite")
        #expect(!tiers.contains("diverged"), "\(tiers)")
        // Every seq is 100 ahead, so only a case whose answers carry no seq is byte-equal.
        #expect(tiers.filter { $0 == "bound" }.count >= 34, "\(tiers)")
        let capabilities = Set(report.properties.values.compactMap { $0["capabilities"] })
        #expect(capabilities == ["clock logical, seqs at-write, numbering gapped"], "\(capabilities)")
    }
}
