import Foundation
import Harness
import JSON
import Lanes
import Testing

/// `CheckRun.run`: the offline lane over the shared corpus, its filter and its report paths.
@Suite("CheckRun over the shared corpus")
struct CheckRunTests {
    /// Runs a check and returns its result and console text.
    private func run(_ options: CheckRun.Options) async throws(RunError) -> (Bool, String) {
        var text = ""
        let passed = try await CheckRun.run(options) { text += $0 }
        return (passed, text)
    }

    @Test("the shared corpus passes: 41 suites, 40 passed, 1 skipped")
    func sharedCorpusPasses() async throws {
        let (passed, text) = try await run(CheckRun.Options(paths: [RunnerFixtures.sharedCorpus]))
        #expect(passed)
        let last = try #require(text.split(separator: "\n").last)
        #expect(last.hasPrefix("accord: 41 cases (40 passed, 0 failed, 1 skipped)"), "\(text)")
        #expect(!text.contains("FAIL"), "\(text)")
    }

    @Test("a trailing slash on the corpus folder changes nothing")
    func trailingSlash() async throws {
        let (_, plain) = try await run(CheckRun.Options(paths: [RunnerFixtures.sharedCorpus]))
        let (passed, slashed) = try await run(CheckRun.Options(paths: [RunnerFixtures.sharedCorpus + "/"]))
        #expect(passed)
        #expect(slashed.split(separator: "\n").last == plain.split(separator: "\n").last)
    }

    @Test("--filter 'push/*' limits the suites to push cases")
    func filterLimitsSuites() async throws {
        let pushIDs = try RunnerFixtures.sharedCaseIDs().filter { $0.hasPrefix("push/") }
        #expect(!pushIDs.isEmpty)
        try await withTemporaryFolder { folder in
            let report = folder + "/report.json"
            let (passed, text) = try await run(CheckRun.Options(paths: [RunnerFixtures.sharedCorpus], jsonPath: report, filter: "push/*"))
            #expect(passed)
            let last = try #require(text.split(separator: "\n").last)
            #expect(last.hasPrefix("accord: \(pushIDs.count) cases (\(pushIDs.count) passed, 0 failed, 0 skipped)"), "\(text)")
            let json = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: report))))
            let names = (json["suites"]?.arrayValue ?? []).compactMap { $0["name"]?.stringValue }
            #expect(names == pushIDs)
        }
    }

    @Test("--filter on a transcript and a recording name")
    func filterOnFiles() async throws {
        let transcript = RunnerFixtures.transcriptPath("pull/001-bootstrap-empty")
        let (passed, text) = try await run(CheckRun.Options(paths: [transcript], filter: "pull/*"))
        #expect(passed)
        #expect(text.split(separator: "\n").last?.hasPrefix("accord: 1 case (1 passed, 0 failed, 0 skipped)") == true, "\(text)")
        let error = try await requireRunError { _ = try await run(CheckRun.Options(paths: [transcript], filter: "push/*")) }
        #expect(error.description.contains("--filter 'push/*' matches no"), "\(error)")
    }

    @Test("a filter matching nothing throws a usage RunError and leaves no report")
    func filterMatchingNothing() async throws {
        try await withTemporaryFolder { folder in
            let junit = folder + "/report.xml"
            let json = folder + "/report.json"
            var called = false
            let error = try await requireRunError {
                _ = try await CheckRun.run(
                    CheckRun.Options(paths: [RunnerFixtures.sharedCorpus], junitPath: junit, jsonPath: json, filter: "zzz")
                ) { _ in called = true }
            }
            #expect(error.description == "--filter 'zzz' matches no case id or recording file name")
            #expect(!called, "no summary is printed")
            #expect(listing(folder).isEmpty, "no report and no .partial: \(listing(folder))")
        }
    }

    @Test("the same junit and json path throws before anything is written")
    func sameReportPath() async throws {
        try await withTemporaryFolder { folder in
            let path = folder + "/report"
            for (junit, json) in [(path, path), (path, folder + "/./report"), (folder + "/sub/../report", path)] {
                var called = false
                let error = try await requireRunError {
                    _ = try await CheckRun.run(CheckRun.Options(paths: [RunnerFixtures.sharedCorpus], junitPath: junit, jsonPath: json)) {
                        _ in called = true
                    }
                }
                #expect(error.description.contains("same file"), "\(error)")
                #expect(!error.description.contains("\n"), "one line: \(error)")
                #expect(!called)
                #expect(listing(folder).isEmpty, "nothing written: \(listing(folder))")
            }
        }
    }

    @Test("an unwritable report path throws before any input is read")
    func unwritableReport() async throws {
        try await withTemporaryFolder { folder in
            let error = try await requireRunError {
                _ = try await run(CheckRun.Options(paths: [folder + "/absent.json"], junitPath: folder + "/missing/report.xml"))
            }
            #expect(error.description.contains("folder \(folder)/missing does not exist"), "the report is checked first: \(error)")
            #expect(listing(folder).isEmpty)
        }
    }

    @Test("a bad input path throws and leaves no report")
    func badInputLeavesNoReport() async throws {
        try await withTemporaryFolder { folder in
            let missing = folder + "/absent.json"
            let error = try await requireRunError {
                _ = try await run(CheckRun.Options(paths: [missing], junitPath: folder + "/r.xml", jsonPath: folder + "/r.json"))
            }
            #expect(error.description.hasPrefix(missing + ": "), "\(error)")
            #expect(listing(folder).isEmpty, "\(listing(folder))")
        }
    }

    @Test("no paths is a usage error")
    func noPaths() async {
        let error = await runError { _ = try await run(CheckRun.Options(paths: [])) }
        #expect(error?.description.contains("at least one PATH") == true, "\(String(describing: error))")
    }

    @Test("JUnit and JSON reports are written in place and no .partial remains")
    func reportsWritten() async throws {
        try await withTemporaryFolder { folder in
            let junit = folder + "/report.xml"
            let json = folder + "/report.json"
            let (passed, text) = try await run(CheckRun.Options(paths: [RunnerFixtures.sharedCorpus], junitPath: junit, jsonPath: json))
            #expect(passed)
            #expect(text.split(separator: "\n").last?.hasPrefix("accord: 41 cases (40 passed, 0 failed, 1 skipped)") == true)
            #expect(listing(folder) == ["report.json", "report.xml"])
            #expect(!listing(folder).contains { $0.hasSuffix(".partial") })
            let xml = String(decoding: try Data(contentsOf: URL(fileURLWithPath: junit)), as: UTF8.self)
            #expect(xml.hasPrefix("<?xml"), "\(xml.prefix(80))")
            #expect(xml.contains("</testsuites>"))
            let report = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: json))))
            #expect(report["suites"]?.arrayValue?.count == 41)
        }
    }
}
