import Foundation
import Reports
import Testing

/// `accord run --client CMD --kill-matrix`: the reference client survives every kill point of the
/// corpus, and its seeded crash faults fail at the named point with the KM rule.
@Suite("accord run --client --kill-matrix")
struct KillMatrixTests {
    static var driver: String { "'\(AccordBinary.path)' driver" }

    @Test("the reference client passes the whole matrix; every point is played; JUnit validates")
    func corpusPasses() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("kill.xml")
        let result = try await AccordBinary.run([
            "run", "--client", Self.driver, "--kill-matrix", AccordBinary.sharedCorpus, "--junit", junit.path,
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("149 cases (147 passed, 0 failed, 2 skipped)"), "\(result.stdout)")
        let xml = [UInt8](try Data(contentsOf: junit))
        let schema = [UInt8](try Data(contentsOf: URL(fileURLWithPath: AccordBinary.packageRoot + "/../shared/junit/junit-10.xsd")))
        try JUnitSchema.validate(xml: xml, schema: schema)
        let text = String(decoding: xml, as: UTF8.self)
        for point in [
            "after-local-write", "after-push-sent", "after-push-answered", "between-pages", "before-closing-commit", "soft-block",
            "identity-change",
        ] {
            #expect(text.contains("@ \(point)\""), "no suite for \(point)")
            #expect(text.contains("kill @ \(point)\""), "no kill test case for \(point)")
        }
        #expect(text.contains("name=\"push/005-atomic-batch-revert @ after-push-sent\""))
        #expect(text.contains("<property name=\"lane\" value=\"client-kill-matrix\"/>"))
        #expect(text.contains("refused the store under another identity with STORE_UNAVAILABLE"))
    }

    @Test("runner-side kills alone (a driver that ignores ACCORD_KILL_AT) pass too")
    func withoutHook() async throws {
        let result = try await AccordBinary.run([
            "run", "--client", "env -u ACCORD_KILL_AT " + Self.driver, "--kill-matrix", AccordBinary.sharedCorpus, "--filter", "pu*",
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(" 0 failed"), "\(result.stdout)")
    }

    @Test(
        "a client that is not crash-safe fails at the named kill point with the KM rule",
        arguments: [
            (
                "two-transaction-write", "push/005-atomic-batch-revert",
                "FAIL push/005-atomic-batch-revert @ after-local-write › step 5 local: KM-LOST-EDIT"
            ),
            (
                "cursor-before-data", "pull/002-keyset-pagination",
                "FAIL pull/002-keyset-pagination @ before-closing-commit › step 6 pull: KM-CURSOR-AHEAD"
            ),
            (
                "share-store-across-identities", "push/005-atomic-batch-revert",
                "FAIL push/005-atomic-batch-revert @ identity-change › step 5 local: KM-IDENTITY"
            ),
        ])
    func brokenClient(fault: String, caseID: String, line: String) async throws {
        let result = try await AccordBinary.run([
            "run", "--client", Self.driver + " --fault " + fault, "--kill-matrix", AccordBinary.sharedCorpus, "--filter", caseID,
        ])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(line), "\(result.stdout)")
    }

    @Test("the same faults pass the plain client lane: only the kill matrix catches them")
    func plainLaneMisses() async throws {
        for fault in ["two-transaction-write", "cursor-before-data", "share-store-across-identities"] {
            let result = try await AccordBinary.run([
                "run", "--client", Self.driver + " --fault " + fault, AccordBinary.sharedCorpus, "--filter", "pu*",
            ])
            #expect(result.status == 0, "\(fault): \(result.stdout)\(result.stderr)")
        }
    }

    @Test("--kill-matrix is refused in the server lane")
    func serverLaneRefuses() async throws {
        let result = try await AccordBinary.run(["run", "--server", "embedded", "--kill-matrix", AccordBinary.sharedCorpus])
        #expect(result.status == 64, "\(result.stdout)\(result.stderr)")
        #expect(result.stderr.contains("--kill-matrix applies to the client lane only"))
    }
}
