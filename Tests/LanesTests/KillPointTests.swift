import AccordDriver
import AccordTestSupport
import Corpus
import Foundation
import Harness
import Lanes
import Reports
import Testing

/// The kill matrix's points: which step of a case each one kills at, and which ones a driver can pin with its hook.
@Suite("kill points")
struct KillPointTests {
    @Test("each point targets the first step that reaches it")
    func targets() throws {
        let push = try RunnerFixtures.transcript("push/005-atomic-batch-revert").transcript
        #expect(KillPoint.afterLocalWrite.target(in: push) == 5)
        #expect(KillPoint.identityChange.target(in: push) == 5)
        #expect(KillPoint.afterPushSent.target(in: push) == 7)
        #expect(KillPoint.afterPushAnswered.target(in: push) == 7)
        #expect(KillPoint.beforeClosingCommit.target(in: push) == 2)
        #expect(KillPoint.betweenPages.target(in: push) == nil)
        #expect(KillPoint.softBlock.target(in: push) == nil)
        let pull = try RunnerFixtures.transcript("pull/002-keyset-pagination").transcript
        #expect(KillPoint.betweenPages.target(in: pull) == 4)
        #expect(KillPoint.beforeClosingCommit.target(in: pull) == 6)
        #expect(KillPoint.afterLocalWrite.target(in: pull) == nil)
        let reset = try RunnerFixtures.transcript("lifecycle/002-reset-required").transcript
        #expect(KillPoint.softBlock.target(in: reset) == 1)
        #expect(KillPoint.beforeClosingCommit.target(in: reset) == nil, "a signal page closes nothing")
    }

    @Test("a push after a fault step is still the first push the mock receives")
    func pushAfterFault() throws {
        let replay = try RunnerFixtures.transcript("push/003-replay-returns-recorded-verdicts").transcript
        #expect(KillPoint.afterPushSent.target(in: replay) == 4)
        #expect(KillPoint.afterPushAnswered.target(in: replay) == 4)
    }

    /// Conformance/transcripts/push/903: steps 3 and 4 are another user's push and pull (the
    /// server lane's); the client's own push is step 5. Targeting step 3 had the hooked driver
    /// die at step 5, which the matrix then reported as CL-DRIVER (the self-test's baseline).
    @Test("an exchange another client makes is no kill target: the point falls on the client's own exchange")
    func anotherClientsExchange() throws {
        let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Conformance/transcripts/push/903-replay-by-another-user-rls-denied.json").path
        let replay = try LoadedTranscript(raw: [UInt8](try Data(contentsOf: URL(fileURLWithPath: path))), file: path).transcript
        #expect(KillPoint.afterPushSent.target(in: replay) == 5)
        #expect(KillPoint.afterPushAnswered.target(in: replay) == 5)
        #expect(KillPoint.beforeClosingCommit.target(in: replay) == 7)
    }

    @Test("only the seams a runner cannot pin from outside have a driver hook")
    func hooks() {
        let hooked = KillPoint.allCases.filter(\.hasDriverHook).map(\.rawValue)
        #expect(hooked == ["after-local-write", "after-push-answered", "before-closing-commit"])
        #expect(KillPoint.allCases.count == 7)
    }

    @Test("a driver that does not announce kill-safe is skipped for every case")
    func notKillSafe() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accord-kill-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("kill.xml").path
        var options = ClientRun.Options(paths: [RunnerFixtures.sharedCorpus], clientName: "toy")
        options.run.selection.filter = "push/00*"
        options.run.reports.junit = junit
        var text = ""
        // Nothing is checked, so the run is a setup error unless --allow-empty.
        await #expect(throws: RunError.self) {
            try await ClientRun.run(options, matrix: .killPoints, launch: { _ in InProcessDriver(engine: ToyEngine()) }) { _ in }
        }
        options.run.console.allowEmpty = true
        let passed = try await ClientRun.run(options, matrix: .killPoints, launch: { _ in InProcessDriver(engine: ToyEngine()) }) {
            text += $0
        }
        #expect(passed, "\(text)")
        #expect(text.contains("0 passed, 0 failed"), "\(text)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("push/001-insert-applied @ kill-matrix"))
        #expect(xml.contains("does not announce kill-safe"))
    }
}
