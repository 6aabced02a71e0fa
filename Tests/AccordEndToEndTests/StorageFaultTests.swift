import Foundation
import Reports
import Testing

/// `accord run --client CMD --storage-faults`: the driver runs under libfiu; the reference client
/// handles every storage fault of the corpus, its two seeded storage faults fail at their point with
/// the SF rule, a Python driver runs under the same matrix, and a missing libfiu is a setup error.
@Suite("accord run --client --storage-faults")
struct StorageFaultTests {
    static var driver: String { "'\(AccordBinary.path)' driver" }

    @Test("the reference client passes every point and variant of two cases; JUnit identities are unique per case and point")
    func referencePasses() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("storage.xml")
        let result = try await AccordBinary.run([
            "run", "--client", Self.driver, "--storage-faults", AccordBinary.sharedCorpus, "--filter", "*/00[15]-[al]*",
            "--junit", junit.path,
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(" 0 failed"), "\(result.stdout)")
        let text = String(decoding: try Data(contentsOf: junit), as: UTF8.self)
        for point in ["local-write", "in-flight-push", "verdict-apply", "staged-page", "closing-commit", "identity-change"] {
            #expect(text.contains("storage fault @ \(point)\""), "no fault test case for \(point)")
        }
        #expect(text.contains("classname=\"kizuna.storage.push.005-atomic-batch-revert@local-write+enospc+restart\""))
        #expect(text.contains("name=\"push/005-atomic-batch-revert @ verdict-apply eio same-process\""))
        #expect(text.contains("<property name=\"lane\" value=\"client-storage-faults\"/>"))
        let pairs = text.components(separatedBy: "<testcase ").dropFirst().map { $0.prefix { $0 != ">" } }
        #expect(Set(pairs).count == pairs.count, "a (name, classname) pair repeats")
    }

    @Test(
        "a client that mishandles a storage failure fails at the named point with the SF rule",
        arguments: [
            (
                "ack-failed-write", "push/005-atomic-batch-revert",
                "FAIL push/005-atomic-batch-revert @ local-write eio same-process › step 5 local: SF-FALSE-SUCCESS"
            ),
            (
                "drop-cursor-on-failed-commit", "fencing/001-late-commit-delivered",
                "FAIL fencing/001-late-commit-delivered @ staged-page eio same-process › step 3 pull (after the fault): SF-CURSOR"
            ),
        ])
    func seededFault(fault: String, caseID: String, line: String) async throws {
        let result = try await AccordBinary.run([
            "run", "--client", Self.driver + " --fault " + fault, "--storage-faults", AccordBinary.sharedCorpus, "--filter", caseID,
        ])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains(line), "\(result.stdout)")
    }

    @Test(
        "a driver that is a Python script with its own sqlite3 store runs under the matrix: it passes the pull cases, and a copy that swallows store errors fails"
    )
    func pythonDriver() async throws {
        let script = AccordBinary.packageRoot + "/Tests/Fixtures/pull-only-driver.py"
        let passing = try await AccordBinary.run([
            "run", "--client", "python3 '\(script)'", "--storage-faults", AccordBinary.sharedCorpus, "--filter", "pull/*",
        ])
        #expect(passing.status == 0, "\(passing.stdout)\(passing.stderr)")
        #expect(passing.stdout.contains("28 cases (28 passed, 0 failed, 0 skipped)"), "\(passing.stdout)")
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let swallowing = folder.appendingPathComponent("swallowing-driver.py")
        let source = try String(contentsOfFile: script, encoding: .utf8)
        let broken = source.replacingOccurrences(of: "raise Refusal(\"STORE\", f\"the store failed: {error}\")", with: "pass")
        #expect(broken != source)
        try broken.write(to: swallowing, atomically: true, encoding: .utf8)
        let failing = try await AccordBinary.run([
            "run", "--client", "python3 '\(swallowing.path)'", "--storage-faults", AccordBinary.sharedCorpus, "--filter", "pull/001*",
        ])
        #expect(failing.status == 1, "\(failing.stdout)\(failing.stderr)")
        #expect(failing.stdout.contains("step 1 pull: SF-FALSE-SUCCESS"), "\(failing.stdout)")
    }

    @Test("without fiu-ctrl the matrix says so in one line and exits with the setup status 78")
    func missingLibfiu() async throws {
        let result = try await AccordBinary.run(
            ["run", "--client", Self.driver, "--storage-faults", AccordBinary.sharedCorpus], environment: ["PATH": "/nonexistent"])
        #expect(result.status == 78, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.split(separator: "\n").count == 1, "\(result.stderr)")
        #expect(result.stderr.contains("fiu-ctrl is not on PATH"), "\(result.stderr)")
    }

    @Test("--storage-faults is refused with --kill-matrix and on the server lane")
    func refusedCombinations() async throws {
        let both = try await AccordBinary.run([
            "run", "--client", Self.driver, "--storage-faults", "--kill-matrix", AccordBinary.sharedCorpus,
        ])
        #expect(both.status == 64, "\(both.stderr)")
        let server = try await AccordBinary.run(["run", "--server", "embedded", "--storage-faults", AccordBinary.sharedCorpus])
        #expect(server.status == 64, "\(server.stderr)")
    }
}
