import Foundation
import Testing

@testable import Harness
@testable import Lanes

/// `CaseSource` and `ReportPaths`: the two pieces every lane shares before it plays anything.
@Suite("CaseSource and ReportPaths")
struct CaseSourceTests {
    @Test("the shards of a source partition its filtered cases, in input order, and every id is still known")
    func shardsPartition() throws {
        let whole = try CaseSource(paths: [RunnerFixtures.sharedCorpus], filter: "push/*").selected()
        #expect(!whole.cases.isEmpty)
        #expect(whole.cases.allSatisfy { $0.id.hasPrefix("push/") })
        var union: [String] = []
        for index in 1...3 {
            let shard = try CaseSource(paths: [RunnerFixtures.sharedCorpus], filter: "push/*", shard: (index, 3)).selected()
            #expect(shard.ids == whole.ids, "every shard knows every id, for the known-failing check")
            union += shard.cases.map(\.id)
        }
        #expect(union.sorted() == whole.cases.map(\.id).sorted())
        #expect(whole.ids.count > whole.cases.count, "ids cover the unfiltered inputs")
    }

    @Test("a filter that matches no case is a usage error naming the filter")
    func filterMatchingNothing() {
        #expect(throws: RunError.self) { try CaseSource(paths: [RunnerFixtures.sharedCorpus], filter: "zzz/*").selected() }
        do {
            _ = try CaseSource(paths: [RunnerFixtures.sharedCorpus], filter: "zzz/*").selected()
        } catch {
            #expect(error.description == "--filter 'zzz/*' matches no case id")
        }
    }

    @Test("matches is fnmatch over ids; no filter selects everything")
    func matches() {
        #expect(CaseSource.matches("push/001-x", "push/*"))
        #expect(!CaseSource.matches("pull/001-x", "push/*"))
        #expect(CaseSource.matches("anything", nil))
    }

    @Test("report paths that clash with each other or with an input are refused before anything runs")
    func reportPathsClash() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accord-paths-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let same = ReportPaths(junit: folder + "/r.xml", json: folder + "/r.xml")
        #expect(throws: RunError.self) { try same.check(inputs: []) }
        let html = ReportPaths(junit: folder + "/r.xml", html: folder + "/r.xml")
        #expect(throws: RunError.self) { try html.check(inputs: []) }
        let input = ReportPaths(json: folder + "/in.json")
        #expect(throws: RunError.self) { try input.check(inputs: [folder + "/in.json"]) }
        let fine = ReportPaths(junit: folder + "/a.xml", json: folder + "/a.json", html: folder + "/a.html")
        try fine.check(inputs: [folder + "/in.json"])
        #expect(fine.writesFiles && !ReportPaths().writesFiles)
    }
}
