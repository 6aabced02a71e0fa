import Foundation
import JSON
import Reports
import Testing

@Suite("accord check on the shared corpus writes valid JUnit")
struct CorpusJUnitTests {
    @Test("every case passes, the blocked one is skipped, and out.xml validates against junit-10.xsd")
    func corpusJUnitValidates() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("out.xml")
        let json = folder.appendingPathComponent("out.json")
        let result = try await AccordBinary.run(["check", AccordBinary.sharedCorpus, "--junit", junit.path, "--json", json.path])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("41 cases (40 passed, 0 failed, 1 skipped)"), "\(result.stdout)")

        let xml = [UInt8](try Data(contentsOf: junit))
        try JUnitSchema.validate(
            xml: xml,
            schema: [UInt8](try Data(contentsOf: URL(fileURLWithPath: AccordBinary.packageRoot + "/../shared/junit/junit-10.xsd"))))
        let text = String(decoding: xml, as: UTF8.self)
        #expect(!text.contains("<failure"))
        #expect(text.contains("<testsuite name=\"wakeup/002-wakeup-payload\""))

        let report = try JSONParser.parse([UInt8](try Data(contentsOf: json)))
        let suites = try #require(report["suites"]?.arrayValue)
        #expect(suites.count == 41)
        let blocked = try #require(suites.first { $0["name"]?.stringValue == "wakeup/002-wakeup-payload" })
        let blockedCases = try #require(blocked["cases"]?.arrayValue)
        #expect(blockedCases.count == 1)
        #expect(blockedCases.first?["outcome"]?.stringValue == "skipped")
        #expect(blockedCases.first?["reason"]?.stringValue?.contains("D-wakeup-channel") == true)
        for suite in suites where suite["name"]?.stringValue != "wakeup/002-wakeup-payload" {
            let cases = suite["cases"]?.arrayValue ?? []
            let passed = cases.filter { $0["outcome"]?.stringValue == "passed" }
            #expect(!passed.isEmpty, "\(suite["name"]?.stringValue ?? "?") has checked steps")
            #expect(cases.allSatisfy { ["passed", "skipped"].contains($0["outcome"]?.stringValue ?? "") })
        }
    }

    @Test("a failing case yields a JUnit failure typed with the rule id, naming the step")
    func failingCaseJUnit() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let source = AccordBinary.sharedCorpus + "/transcripts/push/002-rls-denied-not-a-wedge.json"
        let original = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: source))))
        let broken = original.replacing(at: try ptr("/steps/6/response/verdicts/1"), with: nil)
        let file = folder.appendingPathComponent("push-002.json")
        try Data(CanonicalJSON.render(broken)).write(to: file)
        let junit = folder.appendingPathComponent("out.xml")
        let result = try await AccordBinary.run(["check", file.path, "--junit", junit.path])
        #expect(result.status == 1)
        #expect(result.stdout.contains("FAIL push/002-rls-denied-not-a-wedge › step 7 push: I-5"))
        let xml = [UInt8](try Data(contentsOf: junit))
        try JUnitSchema.validate(
            xml: xml,
            schema: [UInt8](try Data(contentsOf: URL(fileURLWithPath: AccordBinary.packageRoot + "/../shared/junit/junit-10.xsd"))))
        let text = String(decoding: xml, as: UTF8.self)
        #expect(text.contains("<failure type=\"I-5\" message=\"step 7 push: I-5 expected 2 verdicts, one per mutation, got 1"))
    }
}
