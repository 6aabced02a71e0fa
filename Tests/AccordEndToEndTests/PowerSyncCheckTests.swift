import Foundation
import JSON
import Testing

/// A PowerSync transcript of Conformance/powersync broken the way one PS rule forbids.
struct StreamBreak: CustomStringConvertible, Sendable {
    var name: String
    var file: String
    var rule: String
    /// The step, its label, and the 1-based NDJSON line where it fails (nil for a request/answer step).
    var step: Int
    var label: String
    var line: Int?
    /// The JSON pointer the finding names.
    var pointer: String
    var edit: (String, JSONValue)

    var description: String { "\(name) → \(rule) at step \(step)" + (line.map { " line \($0)" } ?? "") }
}

/// The PowerSync profile end to end: `accord check` chooses the PS rules from the transcript's and
/// manifest's `profile`, the cases pass, each hand-broken stream fails at its rule, NDJSON line and
/// pointer and nothing else, and the live lanes say PowerSync cases are not yet supported.
@Suite("accord check on PowerSync streams")
struct PowerSyncCheckTests {
    static var folder: String { AccordBinary.packageRoot + "/Conformance/powersync" }

    static let breaks: [StreamBreak] = [
        StreamBreak(
            name: "a stale complete", file: "001-initial-sync-completes", rule: "PS-COMPLETE", step: 2, label: "sync-stream", line: 5,
            pointer: "/checkpoint_complete/last_op_id", edit: ("/steps/1/lines/4/checkpoint_complete/last_op_id", "3")),
        StreamBreak(
            name: "a wrong checksum", file: "001-initial-sync-completes", rule: "PS-CHECKSUM", step: 2, label: "sync-stream", line: 5,
            pointer: "/checkpoint_complete", edit: ("/steps/1/lines/1/checkpoint/buckets/0/checksum", 18)),
        StreamBreak(
            name: "a partial completion claiming a higher-priority bucket", file: "004-priorities-complete-in-order", rule: "PS-PRIORITY",
            step: 2, label: "sync-stream", line: 3, pointer: "/partial_checkpoint_complete/priority",
            edit: ("/steps/1/lines/2/partial_checkpoint_complete/priority", 1)),
        StreamBreak(
            name: "a regressing write checkpoint", file: "006-write-checkpoints-move-forward", rule: "PS-WRITE-CHECKPOINT", step: 9,
            label: "sync-stream", line: 1, pointer: "/checkpoint/write_checkpoint",
            edit: ("/steps/8/lines/0/checkpoint/write_checkpoint", "6")),
        StreamBreak(
            name: "a checkpoint-request id that moved back", file: "007-checkpoint-request-ids-keep-the-greatest", rule: "PS-REQUEST-ID",
            step: 4, label: "checkpoint-request", line: nil, pointer: "/response/data/checkpoint_request_id",
            edit: ("/steps/3/response/data/checkpoint_request_id", "2")),
        StreamBreak(
            name: "a data page that does not chain", file: "002-paged-data-chains-and-resumes", rule: "PS-OP-ORDER", step: 2,
            label: "sync-stream", line: 3, pointer: "/data/after", edit: ("/steps/1/lines/2/data/after", "1")),
        StreamBreak(
            name: "a diff removing a bucket its checkpoint lacks", file: "005-diff-follows-its-checkpoint", rule: "PS-DIFF", step: 2,
            label: "sync-stream", line: 5, pointer: "/checkpoint_diff/removed_buckets/0",
            edit: ("/steps/1/lines/4/checkpoint_diff/removed_buckets/0", "user-ada-projects")),
        StreamBreak(
            name: "a keepalive that is not a number", file: "001-initial-sync-completes", rule: "PS-SHAPE", step: 2, label: "sync-stream",
            line: 1, pointer: "/token_expires_in", edit: ("/steps/1/lines/0/token_expires_in", "soon")),
    ]

    @Test("a hand-broken stream fails its rule at its step, NDJSON line and pointer, and nothing else", arguments: breaks)
    func brokenStreamFails(_ broken: StreamBreak) async throws {
        let path = Self.folder + "/transcripts/\(broken.file).json"
        var json = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        let target = try ptr(broken.edit.0)
        #expect(json.value(at: target) != nil, "edit target \(broken.edit.0) exists")
        json = json.replacing(at: target, with: broken.edit.1)
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("broken.json")
        try Data(CanonicalJSON.render(json)).write(to: file)
        let report = folder.appendingPathComponent("report.json")
        let result = try await AccordBinary.run(["check", file.path, "--json", report.path])
        #expect(result.status == 1, "exit 1 on a rule failure; stderr: \(result.stderr)")
        let failures = try CheckBreakTests.failures(in: report)
        #expect(!failures.isEmpty, "the break is caught")
        let at = "step \(broken.step) \(broken.label)" + (broken.line.map { " NDJSON line \($0)" } ?? "")
        for failure in failures {
            #expect(failure.rule == broken.rule, "only \(broken.rule) fails: \(failure.message)")
            #expect(failure.caseName == "step \(broken.step) \(broken.label)", "the failing case is the step: \(failure.caseName)")
            #expect(failure.message.hasPrefix("\(at): \(broken.rule) "), "names the step and line: \(failure.message)")
            #expect(failure.message.hasSuffix("(at \(broken.pointer))"), "names the pointer \(broken.pointer): \(failure.message)")
        }
    }

    @Test("accord check runs the PS rules on the PowerSync corpus from its manifest's profile, and every case passes")
    func corpusPasses() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("report.json")
        let result = try await AccordBinary.run(["check", Self.folder, "--json", report.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        // A client step's checkpoint request (request-checkpoint, an accepted upload's own) and a client's reconcile are exchanges, judged offline.
        #expect(result.stdout.contains("26 cases (26 passed, 0 failed, 0 skipped), 155 steps: 73 passed, 0 failed, 82 skipped"))
        let json = try JSONParser.parse([UInt8](try Data(contentsOf: report)))
        let suites = try #require(json["suites"]?.arrayValue)
        #expect(suites.count == 26)
        for suite in suites {
            #expect(suite["properties"]?["profile"]?.stringValue == "powersync", "\(suite["name"]?.stringValue ?? "")")
            let cases = suite["cases"]?.arrayValue ?? []
            #expect(!cases.isEmpty)
            for testcase in cases {
                let name = testcase["name"]?.stringValue ?? ""
                let suiteName = suite["name"]?.stringValue ?? ""
                let acceptedUpload =
                    (suiteName.hasPrefix("powersync/008") && name == "step 13 upload")
                    || (suiteName.hasPrefix("powersync/012") && name == "step 10 upload")
                    || (suiteName.hasPrefix("powersync/014") && name == "step 6 upload")
                // 014's request-checkpoint is refused by a legacy-mode client and puts nothing on the wire.
                let refused = suiteName.hasPrefix("powersync/014") && name == "step 4 request-checkpoint"
                let exchange =
                    acceptedUpload
                    || (!refused
                        && ["sync-stream", "checkpoint-request", "write-checkpoint", "request-checkpoint"].contains {
                            name.hasSuffix(" " + $0)
                        })
                let source = name.hasSuffix(" source") || name.hasSuffix(" replicate")
                if exchange {
                    #expect(testcase["outcome"]?.stringValue == "passed", "\(name)")
                } else if source {
                    #expect(testcase["outcome"]?.stringValue == "skipped", "a source-side step is not judged offline: \(name)")
                    #expect(testcase["reason"]?.stringValue?.contains("the server lane") == true, "\(name)")
                } else {
                    #expect(testcase["outcome"]?.stringValue == "skipped", "a client step is not judged offline: \(name)")
                    #expect(testcase["reason"]?.stringValue?.contains("client lane") == true, "\(name)")
                }
            }
        }
    }

    @Test("the server lane plays every PowerSync case against the embedded service: its answers are the golden lines and pass the PS rules")
    func serverLanePasses() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("report.json")
        let result = try await AccordBinary.run(["run", "--server", "embedded", Self.folder, "--json", report.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("26 cases (26 passed, 0 failed, 0 skipped), 75 steps: 73 passed, 0 failed, 2 skipped"))
        let json = try JSONParser.parse([UInt8](try Data(contentsOf: report)))
        let suites = json["suites"]?.arrayValue ?? []
        #expect(suites.count == 26)
        for suite in suites {
            let name = suite["name"]?.stringValue ?? ""
            let cases = suite["cases"]?.arrayValue ?? []
            #expect(cases.contains { $0["outcome"]?.stringValue == "passed" }, "a real exchange judged in \(name)")
            // 025 (an expired token's stream, no checkpoint) and 026 (the checkpoint route alone) have no source side.
            if !name.hasPrefix("powersync/025") && !name.hasPrefix("powersync/026") {
                #expect((suite["properties"]?["source_steps"]?.stringValue).flatMap(Int.init) ?? 0 > 0, "\(name)")
            }
            for testcase in cases {
                let label = testcase["name"]?.stringValue ?? ""
                #expect(testcase["classname"]?.stringValue?.hasPrefix("powersync.server.") == true)
                if label.hasSuffix(" stream-fault") {
                    #expect(testcase["outcome"]?.stringValue == "skipped", "\(name) \(label)")
                    #expect(testcase["reason"]?.stringValue?.hasPrefix("not applicable in the server lane: ") == true)
                } else {
                    #expect(testcase["outcome"]?.stringValue == "passed", "\(name) \(label)")
                    let exchange = ["sync-stream", "checkpoint-request", "write-checkpoint", "request-checkpoint", "upload"]
                    #expect(exchange.contains { label.hasSuffix(" " + $0) }, "only steps with a request on the wire: \(label)")
                }
            }
        }
        // The client cases' purely local steps (writes, waits, asserts, …) are left to the client lane.
        let left = suites.compactMap { ($0["properties"]?["left_to_client_lane"]?.stringValue).flatMap(Int.init) }.reduce(0, +)
        #expect(left == 40, "\(result.stdout)")
    }

    @Test("a client-side case that states no source side is not applicable in the server lane, with the reason")
    func serverLaneSkipsClientCaseWithoutSource() async throws {
        let path = Self.folder + "/transcripts/011-a-request-survives-a-disconnect.json"
        let json = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        guard case .object(var object) = json, case .array(var steps)? = object["steps"] else {
            Issue.record("011 has no steps")
            return
        }
        try #require(steps.first?["kind"]?.stringValue == "source")
        steps.removeFirst()
        for index in steps.indices {
            guard case .object(var step) = steps[index] else { continue }
            step["n"] = .number(JSONNumber(index + 1))
            steps[index] = .object(step)
        }
        object["steps"] = .array(steps)
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("no-source.json")
        try Data(CanonicalJSON.render(.object(object))).write(to: file)
        let result = try await AccordBinary.run(["run", "--server", "embedded", file.path])
        #expect(result.status == 78, "nothing was checked: \(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("1 case (0 passed, 0 failed, 1 skipped)"), "\(result.stdout)")
        #expect(result.stderr.contains("not applicable: a client-side case with no source steps"), "\(result.stderr)")
    }

    @Test("a golden line the embedded service does not send fails AC-GOLDEN at its step, NDJSON line and pointer")
    func serverLaneComparesGolden() async throws {
        let path = Self.folder + "/transcripts/005-diff-follows-its-checkpoint.json"
        var json = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        json = json.replacing(at: try ptr("/steps/1/lines/5/data/data/0/data"), with: "{\"title\":\"B\"}")
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("changed.json")
        try Data(CanonicalJSON.render(json)).write(to: file)
        let result = try await AccordBinary.run(["run", "--server", "embedded", file.path])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains(
                "step 2 sync-stream NDJSON line 6: AC-GOLDEN the live line differs from golden NDJSON line 6 (at /data/data/0/data)"),
            "\(result.stdout)")
    }

    @Test(
        "a KizunaSync driver in the client lane plays no PowerSync case: each is skipped, unsupported or not applicable, and the run is not green"
    )
    func clientLaneNeedsPowerSyncDriver() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let report = folder.appendingPathComponent("report.json")
        let result = try await AccordBinary.run(["run", "--client", "'\(AccordBinary.path)' driver", Self.folder, "--json", report.path])
        #expect(result.status != 0, "nothing was checked, so the run is not a pass: \(result.stdout)")
        let json = try JSONParser.parse([UInt8](try Data(contentsOf: report)))
        let cases = (json["suites"]?.arrayValue ?? []).flatMap { $0["cases"]?.arrayValue ?? [] }
        #expect(cases.count == 26)
        for testcase in cases {
            #expect(testcase["outcome"]?.stringValue == "skipped")
            let reason = testcase["reason"]?.stringValue ?? ""
            #expect(
                reason.hasPrefix("unsupported: the driver speaks the kizunasync profile") || reason.hasPrefix("not applicable: "),
                "\(reason)")
        }
    }

    @Test(
        "accord serve --profile powersync over loopback: the server lane plays every case through its HTTP endpoints and fixtures, and SIGINT stops it"
    )
    func serverLaneOverHTTP() async throws {
        let served = try ServeEndToEndTests.Served(["--profile", "powersync", "--jwt-secret", "e2e-secret", "--fixtures"])
        let result = try await AccordBinary.run([
            "run", "--server", "http://127.0.0.1:\(served.port)", "--jwt-secret", "e2e-secret", Self.folder,
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("26 cases (26 passed, 0 failed, 0 skipped), 75 steps: 73 passed"), "\(result.stdout)")
        let stopped = served.stop()
        #expect(stopped.status == 0)
        #expect(stopped.rest.contains("accord serve: stopped"))
    }

    /// Issue 35: a wrong secret failed every case (exit 1) instead of reading as the setup
    /// mistake it is; the PowerSync target now has a preflight, as the KizunaSync one has.
    @Test(
        "a PowerSync URL with the wrong secret, with its fixtures off, or not listening is a setup error (78) naming the fix; serve refuses --domain"
    )
    func serveRefuses() async throws {
        #expect(try await AccordBinary.run(["serve", "--profile", "powersync", "--jwt-secret", "s", "--domain", "d.json"]).status == 64)
        #expect(try await AccordBinary.run(["serve", "--profile", "firebase", "--jwt-secret", "s"]).status == 64)
        let served = try ServeEndToEndTests.Served(["--profile", "powersync", "--jwt-secret", "right", "--fixtures"])
        let url = "http://127.0.0.1:\(served.port)"
        let wrong = try await AccordBinary.run(["run", "--server", url, "--jwt-secret", "wrong", Self.folder])
        #expect(wrong.status == 78, "\(wrong.stdout)\(wrong.stderr)")
        #expect(
            wrong.stderr.contains("refused the runner's token: GET /write-checkpoint2.json answered HTTP 401 (PSYNC_S2101"),
            "\(wrong.stderr)")
        #expect(wrong.stderr.contains("--jwt-secret"), "\(wrong.stderr)")
        #expect(!wrong.stdout.contains("passed"), "no case runs: \(wrong.stdout)")
        let right = try await AccordBinary.run([
            "run", "--server", url, "--jwt-secret", "right", Self.folder + "/transcripts/001-initial-sync-completes.json",
        ])
        #expect(right.status == 0, "the right secret passes the preflight: \(right.stdout)\(right.stderr)")
        _ = served.stop()
        let closed = try await AccordBinary.run(["run", "--server", url, "--jwt-secret", "right", Self.folder])
        #expect(closed.status == 78, "\(closed.stdout)\(closed.stderr)")
        #expect(closed.stderr.contains("is not reachable"), "\(closed.stderr)")
        let noFixtures = try ServeEndToEndTests.Served(["--profile", "powersync", "--jwt-secret", "right"])
        defer { _ = noFixtures.stop() }
        let off = try await AccordBinary.run([
            "run", "--server", "http://127.0.0.1:\(noFixtures.port)", "--jwt-secret", "right", Self.folder,
        ])
        #expect(off.status == 78, "\(off.stdout)\(off.stderr)")
        #expect(off.stderr.contains("fixture endpoint is off"), "\(off.stderr)")
    }

    @Test("a source step the service cannot take is that step's errored case, and the exchanges after it are not run")
    func refusedSourceStep() async throws {
        let path = Self.folder + "/transcripts/001-initial-sync-completes.json"
        var json = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        json = json.replacing(at: try ptr("/steps/0/changes/2/put/checksum"), with: 4_294_967_296)
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("refused.json")
        try Data(CanonicalJSON.render(json)).write(to: file)
        let report = folder.appendingPathComponent("report.json")
        let result = try await AccordBinary.run(["run", "--server", "embedded", file.path, "--json", report.path])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        let cases = (try JSONParser.parse([UInt8](try Data(contentsOf: report)))["suites"]?.arrayValue ?? []).flatMap {
            $0["cases"]?.arrayValue ?? []
        }
        #expect(cases.map { $0["name"]?.stringValue ?? "" } == ["step 1 source", "step 2 sync-stream"])
        #expect(cases.first?["outcome"]?.stringValue == "errored")
        #expect(cases.last?["outcome"]?.stringValue == "skipped")
    }
}
