import Foundation
import JSON
import Testing

/// One seeded fault of the reference PowerSync client and where the client lane kills it.
struct PowerSyncClientKill: CustomStringConvertible, Sendable {
    var fault: String
    var caseID: String
    var step: String
    var obligation: String

    var description: String { "\(fault) → \(obligation) at \(caseID) \(step)" }

    static let all: [PowerSyncClientKill] = [
        .init(
            fault: "wait-resolves-on-partial", caseID: "powersync/009-a-wait-resolves-only-on-a-complete-checkpoint",
            step: "step 6 wait-for-sync", obligation: "PSC-WAIT-COMPLETE"),
        .init(
            fault: "wait-resolves-mid-checkpoint", caseID: "powersync/009-a-wait-resolves-only-on-a-complete-checkpoint",
            step: "step 6 wait-for-sync", obligation: "PSC-WAIT-COMPLETE"),
        .init(
            fault: "ids-restart-after-reset", caseID: "powersync/010-request-ids-continue-after-a-local-reset",
            step: "step 3 request-checkpoint", obligation: "PSC-REQUEST-ID"),
        .init(
            fault: "apply-with-uploads-pending", caseID: "powersync/008-checkpoints-wait-for-uploads-and-the-write-checkpoint",
            step: "step 10 assert-client", obligation: "PSC-UPLOADS-FIRST"),
        .init(
            fault: "apply-before-write-checkpoint", caseID: "powersync/008-checkpoints-wait-for-uploads-and-the-write-checkpoint",
            step: "step 16 assert-client", obligation: "PSC-WRITE-CHECKPOINT"),
        .init(
            fault: "apply-checksum-mismatch", caseID: "powersync/013-a-checksum-mismatch-syncs-the-bucket-again",
            step: "step 5 assert-client", obligation: "PSC-CHECKSUM"),
        .init(
            fault: "timeout-reported-as-resolved", caseID: "powersync/008-checkpoints-wait-for-uploads-and-the-write-checkpoint",
            step: "step 11 wait-for-sync", obligation: "PSC-WAIT-UPLOADS"),
    ]
}

/// The client lane over PowerSync transcripts, end to end: the built binary plays the mock
/// service and drives `accord driver --profile powersync`.
@Suite("The client lane over PowerSync cases")
struct PowerSyncClientLaneTests {
    static var folder: String { AccordBinary.packageRoot + "/Conformance/powersync" }

    static func report(_ arguments: [String]) async throws -> (status: Int32, stdout: String, cases: [JSONValue]) {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("report.json")
        let result = try await AccordBinary.run(arguments + ["--json", report.path])
        let json = try JSONParser.parse([UInt8](try Data(contentsOf: report)))
        let cases = (json["suites"]?.arrayValue ?? []).flatMap { suite in
            (suite["cases"]?.arrayValue ?? []).map { testcase -> JSONValue in
                var object = testcase.objectValue ?? JSONObject()
                object["suite"] = suite["name"] ?? .null
                return .object(object)
            }
        }
        return (result.status, result.stdout + result.stderr, cases)
    }

    @Test(
        "the reference PowerSync client passes every PowerSync case; only the exchanges with a chosen id or query (in 006 and 007) are not applicable"
    )
    func referenceClientPasses() async throws {
        let (status, output, cases) = try await Self.report(["run", "--client", "accord driver --profile powersync", Self.folder])
        #expect(status == 0, "\(output)")
        #expect(output.contains("26 cases (15 passed, 0 failed, 11 skipped), 111 steps: 93 passed, 0 failed, 18 skipped"), "\(output)")
        for testcase in cases {
            let suite = testcase["suite"]?.stringValue ?? ""
            let name = testcase["name"]?.stringValue ?? ""
            // 016-026 are PowerSync's own output: its tests' streams name no client_id, so no client plays them.
            if (16...26).contains(Int(suite.dropFirst("powersync/".count).prefix(3)) ?? 0) {
                #expect(testcase["outcome"]?.stringValue == "skipped", "\(suite) \(name)")
                #expect(testcase["reason"]?.stringValue?.hasPrefix("not applicable: ") == true, "\(suite) \(name)")
            } else if name.hasSuffix(" checkpoint-request") || name.hasSuffix(" write-checkpoint") {
                #expect(suite.hasPrefix("powersync/006") || suite.hasPrefix("powersync/007"), "\(suite) \(name)")
                #expect(testcase["outcome"]?.stringValue == "skipped", "\(suite) \(name)")
                #expect(testcase["reason"]?.stringValue?.hasPrefix("not applicable: ") == true, "\(suite) \(name)")
            } else {
                #expect(testcase["outcome"]?.stringValue == "passed", "\(suite) \(name)")
            }
        }
        // 006 and 007 each play real client steps: 006 applies a checkpoint and its diff, 007 adopts the answered id.
        for prefix in ["powersync/006", "powersync/007"] {
            #expect(cases.contains { ($0["suite"]?.stringValue ?? "").hasPrefix(prefix) && $0["outcome"]?.stringValue == "passed" })
        }
    }

    @Test("each seeded fault of the reference PowerSync client fails its obligation at its step", arguments: PowerSyncClientKill.all)
    func faultIsKilled(_ kill: PowerSyncClientKill) async throws {
        let (status, output, cases) = try await Self.report([
            "run", "--client", "accord driver --profile powersync --fault \(kill.fault)", Self.folder, "--filter", kill.caseID,
        ])
        #expect(status == 1, "\(output)")
        let failed = cases.filter { $0["outcome"]?.stringValue == "failed" }
        #expect(failed.count == 1, "\(output)")
        #expect(failed.first?["name"]?.stringValue == kill.step, "\(output)")
        #expect(failed.first?["failures"]?.arrayValue?.first?["rule"]?.stringValue == kill.obligation, "\(output)")
    }

    @Test("a KizunaSync driver is told PowerSync cases need a PowerSync driver, and nothing is checked")
    func kizunaSyncDriverIsUnsupported() async throws {
        let (status, output, cases) = try await Self.report([
            "run", "--client", "accord driver", Self.folder, "--filter", "powersync/011-*",
        ])
        #expect(status != 0 && status != 1, "nothing was checked, so the run is a setup mistake: \(output)")
        #expect(cases.count == 1)
        #expect(cases.first?["reason"]?.stringValue?.contains("profile") == true, "\(output)")
    }

    @Test("the kill matrix kills the reference PowerSync client at each of its three seams and the restarted client finishes every case")
    func killMatrixPasses() async throws {
        let (status, output, cases) = try await Self.report([
            "run", "--client", "accord driver --profile powersync", "--kill-matrix", Self.folder,
        ])
        #expect(status == 0, "\(output)")
        #expect(output.contains("44 cases (31 passed, 0 failed, 13 skipped)"), "\(output)")
        let kills = cases.filter { ($0["name"]?.stringValue ?? "").contains(" kill @ ") }
        #expect(kills.count == 31, "every planned seam was reached: \(kills.count)")
        // A stream completing a checkpoint and its diff (005, 006) cannot be resumed by golden steps after the first apply.
        let skipped = cases.filter {
            $0["outcome"]?.stringValue == "skipped" && $0["name"]?.stringValue == "kill matrix"
                && !($0["suite"]?.stringValue ?? "").contains("-real-")
        }
        #expect(
            skipped.compactMap { $0["suite"]?.stringValue }.sorted() == [
                "powersync/005-diff-follows-its-checkpoint @ after-checkpoint-applied",
                "powersync/006-write-checkpoints-move-forward @ after-checkpoint-applied",
            ])
        for hook in ["after-request-created", "mid-checkpoint", "after-checkpoint-applied"] {
            #expect(kills.contains { $0["name"]?.stringValue?.hasSuffix("kill @ \(hook)") == true }, "\(hook)")
        }
        #expect(kills.allSatisfy { $0["outcome"]?.stringValue == "passed" })
    }

    @Test("a client whose synced requests do not survive a kill after a checkpoint is applied fails the kill matrix there")
    func killMatrixCatchesLostSyncedState() async throws {
        let (status, output, cases) = try await Self.report([
            "run", "--client", "accord driver --profile powersync --fault synced-state-not-recovered", "--kill-matrix", Self.folder,
            "--filter", "powersync/009-*",
        ])
        #expect(status == 1, "\(output)")
        let failed = cases.filter { $0["outcome"]?.stringValue == "failed" }
        #expect(failed.count == 1, "\(output)")
        #expect(
            failed.first?["suite"]?.stringValue == "powersync/009-a-wait-resolves-only-on-a-complete-checkpoint @ after-checkpoint-applied")
        #expect(failed.first?["name"]?.stringValue == "step 10 wait-for-sync")
        #expect(failed.first?["failures"]?.arrayValue?.first?["rule"]?.stringValue == "PSC-WAIT-COMPLETE", "\(output)")
    }
}
