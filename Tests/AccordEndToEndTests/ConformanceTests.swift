import Foundation
import JSON
import Testing

/// Accord's own cases (Conformance/): they load and pass the offline rules, they pass against the
/// embedded server, and a deliberately broken copy of a golden answer fails the run.
@Suite("Conformance/: Accord's own cases")
struct ConformanceTests {
    static var folder: String { AccordBinary.packageRoot + "/Conformance" }

    /// The case ids the demonstration needs, each with its transcript.
    static let caseIDs = [
        "lifecycle/900-stale-schema-pull-with-rows-gets-empty-signal",
        "pull/900-bucket-count-and-limit-refused-22023",
        "push/900-not-null-violation-is-constraint",
        "push/901-column-denied-carries-readable-row",
        "push/902-oversized-atomic-batch-kzp02",
        "push/903-replay-by-another-user-rls-denied",
        "push/904-mixed-rejections-with-applied",
        "tombstones/900-pending-edit-under-pulled-tombstone",
    ]

    @Test("the manifest and every transcript are canonical JSON, and every case is listed")
    func canonicalFiles() throws {
        var paths = ["cases/manifest.json"]
        paths += Self.caseIDs.map { "transcripts/\($0).json" }
        for path in paths {
            let raw = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + path)))
            let value = try JSONParser.parse(raw)
            #expect(CanonicalJSON.render(value) == raw, "\(path) is not canonical")
        }
        let manifest = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/cases/manifest.json"))))
        let listed = manifest["cases"]?.arrayValue?.compactMap { $0["id"]?.stringValue } ?? []
        #expect(listed == Self.caseIDs)
    }

    @Test("accord check Conformance exits 0")
    func checkPasses() async throws {
        let result = try await AccordBinary.run(["check", Self.folder])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("8 cases (8 passed, 0 failed"), "\(result.stdout)")
    }

    @Test("in the client lane, the reference client passes every case one client can play; another client's steps are the server lane's")
    func clientLanePasses() async throws {
        let result = try await AccordBinary.run(["run", "--client", "'\(AccordBinary.path)' driver", Self.folder])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        // push/903 plays its own client; the other user's replay of its id is left to the server lane.
        #expect(result.stdout.contains("8 cases (7 passed, 0 failed, 1 skipped)"), "\(result.stdout)")
    }

    @Test("lifecycle/900 is played in the client lane, not skipped: the signal page soft-blocks and applies no row")
    func staleSchemaPullInClientLane() async throws {
        let result = try await AccordBinary.run([
            "run", "--client", "'\(AccordBinary.path)' driver", Self.folder, "--filter", "lifecycle/900*",
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("1 case (1 passed, 0 failed, 0 skipped)"), "\(result.stdout)")
        #expect(!result.stdout.contains("not applicable"), "\(result.stdout)")
    }

    @Test("every case passes against the embedded server")
    func embeddedPasses() async throws {
        let result = try await AccordBinary.run(["run", "--server", "embedded", Self.folder])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("8 cases (8 passed, 0 failed"), "\(result.stdout)")
        #expect(result.stdout.contains(" 0 failed, "), "\(result.stdout)")
        #expect(!result.stdout.contains("FAIL "), "\(result.stdout)")
    }

    @Test("a wrong rejection reason in the mixed batch fails the run at that step")
    func wrongReasonFails() async throws {
        let copy = try Self.brokenCopy(
            of: "push/904-mixed-rejections-with-applied", replacing: "\"reason\": \"PRECONDITION\"", with: "\"reason\": \"CONSTRAINT\"")
        defer { try? FileManager.default.removeItem(at: URL(fileURLWithPath: copy).deletingLastPathComponent()) }
        let result = try await AccordBinary.run(["run", "--server", "embedded", copy])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("FAIL push/904-mixed-rejections-with-applied › step 9 push: AC-GOLDEN"), "\(result.stdout)")
        #expect(result.stdout.contains("8 cases (7 passed, 1 failed"), "\(result.stdout)")
    }

    @Test("a wrong status on a 22023 error reply fails the run at that step")
    func wrongStatusFails() async throws {
        let copy = try Self.brokenCopy(
            of: "pull/900-bucket-count-and-limit-refused-22023", replacing: "\"status\": 400", with: "\"status\": 422")
        defer { try? FileManager.default.removeItem(at: URL(fileURLWithPath: copy).deletingLastPathComponent()) }
        let result = try await AccordBinary.run(["run", "--server", "embedded", copy])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(
            result.stdout.contains("FAIL pull/900-bucket-count-and-limit-refused-22023 › step 1 pull: AC-GOLDEN"), "\(result.stdout)")
        #expect(result.stdout.contains("expected HTTP 422"), "\(result.stdout)")
    }

    @Test("a wrong error code on the KZP02 reply fails the run")
    func wrongCodeFails() async throws {
        let copy = try Self.brokenCopy(
            of: "push/902-oversized-atomic-batch-kzp02", replacing: "\"code\": \"KZP02\"", with: "\"code\": \"KZP01\"")
        defer { try? FileManager.default.removeItem(at: URL(fileURLWithPath: copy).deletingLastPathComponent()) }
        let result = try await AccordBinary.run(["run", "--server", "embedded", copy, "--filter", "push/902*"])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("FAIL push/902-oversized-atomic-batch-kzp02 › step 502 push: AC-GOLDEN"), "\(result.stdout)")
    }

    /// A temporary copy of Conformance/ whose one transcript has the first `old` replaced by `new`.
    static func brokenCopy(of caseID: String, replacing old: String, with new: String) throws -> String {
        let root = try AccordBinary.temporaryFolder().appendingPathComponent("Conformance")
        try FileManager.default.copyItem(at: URL(fileURLWithPath: folder), to: root)
        let file = root.appendingPathComponent("transcripts/\(caseID).json")
        let text = try String(contentsOf: file, encoding: .utf8)
        let range = try #require(text.range(of: old), "\(caseID) has no \(old)")
        try Data(text.replacingCharacters(in: range, with: new).utf8).write(to: file)
        return root.path
    }
}
