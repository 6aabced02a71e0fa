import Foundation
import JSON
import Reports
import Testing

/// `accord run --client`: the client lane end to end, the reference client (`accord driver`)
/// and its seeded faults run as driver processes through the binary.
@Suite("accord run --client")
struct ClientRunTests {
    static var driver: String { "'\(AccordBinary.path)' driver" }

    @Test("every non-blocked corpus case passes with the reference client; JUnit validates")
    func corpusPasses() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("client.xml")
        let result = try await AccordBinary.run(["run", "--client", Self.driver, AccordBinary.sharedCorpus, "--junit", junit.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("41 cases (39 passed, 0 failed, 2 skipped)"), "\(result.stdout)")
        let xml = [UInt8](try Data(contentsOf: junit))
        let schema = [UInt8](try Data(contentsOf: URL(fileURLWithPath: AccordBinary.packageRoot + "/../shared/junit/junit-10.xsd")))
        try JUnitSchema.validate(xml: xml, schema: schema)
        let text = String(decoding: xml, as: UTF8.self)
        #expect(text.contains("<property name=\"lane\" value=\"client\"/>"))
        #expect(text.contains("soft-block probe"))
    }

    @Test("a pull-only driver runs the whole shared corpus: its pull cases pass, the rest are not applicable with the reason, 0 failures")
    func pullOnlyDriver() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("client.xml")
        let driver = "python3 '\(AccordBinary.packageRoot)/Tests/Fixtures/pull-only-driver.py'"
        let result = try await AccordBinary.run(["run", "--client", driver, AccordBinary.sharedCorpus, "--junit", junit.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("41 cases (12 passed, 0 failed, 29 skipped)"), "\(result.stdout)")
        #expect(
            result.stdout.contains(
                "SKIP conflict/001-different-columns-merge: not applicable: the driver plays pull, transport-error (hello's parts); this case also needs write (step 4), push (step 6)"
            ), "\(result.stdout)")
        let cases = try JUnitCases(Data(contentsOf: junit)).cases
        let byCase = Dictionary(grouping: cases) { $0.classname }
        let passed = Set(byCase.filter { $0.value.contains { $0.failures.isEmpty && $0.skipped == nil && $0.errored == nil } }.keys)
        #expect(
            passed == [
                "kizuna.client.fencing.001-late-commit-delivered", "kizuna.client.fencing.002-overlap-redelivery-idempotent",
                "kizuna.client.lifecycle.001-checkpoint-expired-rehydrate", "kizuna.client.lifecycle.002-reset-required",
                "kizuna.client.lifecycle.005-bootstrap-after-reap-pages-to-completion", "kizuna.client.pull.001-bootstrap-empty",
                "kizuna.client.pull.002-keyset-pagination", "kizuna.client.pull.003-tombstone-leads-continuation-page",
                "kizuna.client.pull.004-exact-fit-closes-checkpoint", "kizuna.client.pull.006-integer-key-pull-only",
                "kizuna.client.tombstones.001-delete-propagates", "kizuna.client.wakeup.001-missed-wakeup-poll-converges",
            ], "every case that only pulls passes: \(passed.sorted())")
        for (classname, steps) in byCase where !passed.contains(classname) {
            #expect(steps.allSatisfy { $0.skipped != nil }, "\(classname) is skipped, not failed")
        }
    }

    @Test("a driver that declares no parts and refuses writes with LOCAL_UNSUPPORTED: those cases are unsupported, not failed")
    func undeclaredPartialDriver() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("client.xml")
        let driver = "python3 '\(AccordBinary.packageRoot)/Tests/Fixtures/pull-only-driver.py' --undeclared"
        let result = try await AccordBinary.run(["run", "--client", driver, AccordBinary.sharedCorpus, "--junit", junit.path, "--quiet"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("41 cases (12 passed, 0 failed, 29 skipped), 245 steps: 102 passed, 0 failed, 143 skipped, 0 errors"),
            "a case refused midway counts as skipped, whatever passed before: \(result.stdout)")
        let cases = try JUnitCases(Data(contentsOf: junit)).cases
        let refused = try #require(
            cases.first { $0.classname == "kizuna.client.conflict.001-different-columns-merge" && $0.name == "step 4 local" })
        #expect(
            refused.skipped
                == "unsupported: the driver refused step 4 local with LOCAL_UNSUPPORTED: this engine's local subset takes no writes")
    }

    @Test("a driver that declares writes and then refuses one fails: a declared part is never excused")
    func declaredPartRefused() async throws {
        let driver = "python3 '\(AccordBinary.packageRoot)/Tests/Fixtures/pull-only-driver.py' --claims-write"
        let result = try await AccordBinary.run([
            "run", "--client", driver, AccordBinary.sharedCorpus, "--filter", "conflict/001*", "--quiet",
        ])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                "FAIL conflict/001-different-columns-merge › step 4 local: CL-OUTCOME the write was not stored: the error DRIVER_UNSUPPORTED"
            ),
            "\(result.stdout)")
    }

    @Test("'accord driver' resolves to this binary")
    func accordWordResolves() async throws {
        let result = try await AccordBinary.run(["run", "--client", "accord driver", AccordBinary.sharedCorpus, "--filter", "push/001*"])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test(
        "a broken client fails with the rule and the step named",
        arguments: [
            ("push-after-reset", "lifecycle/002-reset-required", "step 1 soft-block probe: CL-SOFT-BLOCK"),
            ("split-atomic-run", "push/005-atomic-batch-revert", "step 7 push: CL-ATOMIC-RUN"),
            ("new-id-on-resend", "push/003-replay-returns-recorded-verdicts", "step 4 push: CL-RESEND"),
            ("commit-staged-page", "pull/002-keyset-pagination", "step 4 pull: CL-CHECKPOINT"),
            ("resurrect-under-tombstone", "tombstones/900-pending-edit-under-pulled-tombstone", "step 7 assert: CL-LOCAL-ROW"),
        ])
    func brokenClient(fault: String, caseID: String, named: String) async throws {
        let corpus = caseID.contains("/9") ? AccordBinary.packageRoot + "/Conformance" : AccordBinary.sharedCorpus
        let good = try await AccordBinary.run(["run", "--client", Self.driver, corpus, "--filter", caseID])
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        let result = try await AccordBinary.run(["run", "--client", Self.driver + " --fault " + fault, corpus, "--filter", caseID])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("FAIL \(caseID) › \(named)"), "\(result.stdout)")
    }

    @Test("a client that accepts a response breaking the verdict bijection fails CL-WIRE-STRICT")
    func bijectionAccepted() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("bijection.json")
        try Self.bijectionCase().write(to: file)
        let good = try await AccordBinary.run(["run", "--client", Self.driver, file.path])
        #expect(good.status == 0, "\(good.stdout)\(good.stderr)")
        let broken = try await AccordBinary.run(["run", "--client", Self.driver + " --fault skip-bijection-check", file.path])
        #expect(broken.status == 1)
        #expect(broken.stdout.contains("› step 3 push: CL-WIRE-STRICT"), "\(broken.stdout)")
    }

    @Test("usage errors: both lanes at once, a server-lane option, a bad timeout")
    func usageErrors() async throws {
        let corpus = AccordBinary.sharedCorpus
        for arguments in [
            ["run", "--client", Self.driver, "--server", "embedded", corpus],
            ["run", "--client", Self.driver, corpus, "--scenarios", "x.json"],
            ["run", "--client", Self.driver, corpus, "--timeout", "0"],
            ["run", "--server", "embedded", corpus, "--timeout", "5"],
        ] {
            let result = try await AccordBinary.run(arguments)
            #expect(result.status == 64, "\(arguments): \(result.stdout)\(result.stderr)")
            #expect(result.stderr.contains("accord: error: "), "\(arguments): \(result.stderr)")
        }
    }

    @Test("a driver that hangs or dies before hello is a setup mistake, said once, not a failure per case")
    func hangingDriver() async throws {
        let hang = try await AccordBinary.run([
            "run", "--client", "sleep 30", AccordBinary.sharedCorpus, "--filter", "push/00[12]*", "--timeout", "0.5",
        ])
        #expect(hang.status == 78)
        #expect(hang.stdout.isEmpty, "\(hang.stdout)")
        #expect(hang.stderr.contains("'sleep 30' did not answer hello within 0.5 seconds"), "\(hang.stderr)")
        let dead = try await AccordBinary.run([
            "run", "--client", "sh -c 'echo oops >&2; exit 3'", AccordBinary.sharedCorpus, "--filter", "push/001*",
        ])
        #expect(dead.status == 78)
        #expect(dead.stderr.contains("ended before answering hello: the driver exited with status 3"), "\(dead.stderr)")
        #expect(dead.stderr.contains("oops"), "\(dead.stderr)")
        #expect(dead.stderr.split(separator: "\n").count == 1, "\(dead.stderr)")
    }

    /// push/001 cut after its push, whose answer now carries a verdict for a mutation never sent.
    static func bijectionCase() throws -> Data {
        let path = AccordBinary.sharedCorpus + "/transcripts/push/001-insert-applied.json"
        var json = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        guard case .array(let steps)? = json["steps"], steps.count >= 3, var push = steps[2].objectValue,
            case .array(var verdicts)? = push["response"]?["verdicts"], let first = verdicts.first
        else { throw CocoaError(.fileReadCorruptFile) }
        verdicts.append(first.replacing(at: JSONPointer(tokens: ["mutation_id"]), with: "00000000-0000-4000-8000-f19999999999"))
        push["response"] = ["verdicts": .array(verdicts)]
        push["expect_error"] = "VERDICT_BIJECTION"
        json = json.replacing(at: JSONPointer(tokens: ["steps"]), with: .array([steps[0], steps[1], .object(push)]))
        json = json.replacing(at: JSONPointer(tokens: ["postconditions"]), with: [["check": "outbox-depth", "value": 1]])
        json = json.replacing(at: JSONPointer(tokens: ["case"]), with: "push/990-bijection-broken-response")
        return Data(CanonicalJSON.render(json))
    }
}
