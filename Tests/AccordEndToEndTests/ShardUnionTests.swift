import Foundation
import Testing

/// docs/ci.md runs one shard per CI job: the shards of a run must together hold exactly the run's
/// testcases, each once, whatever the testcases are named.
@Suite("--shard i/n: the shards together are the run")
struct ShardUnionTests {
    /// Every testcase of a JUnit file as `suite \u{1F} classname \u{1F} name`, with repeats (a multiset).
    static func identities(_ xml: String) -> [String: Int] {
        var suite = ""
        var counts: [String: Int] = [:]
        for chunk in xml.split(separator: "<").dropFirst() {
            let tag = chunk.prefix { $0 != ">" }
            if tag.hasPrefix("testsuite ") {
                suite = attribute("name", in: tag) ?? ""
            } else if tag.hasPrefix("testcase ") {
                let key = [suite, attribute("classname", in: tag) ?? "", attribute("name", in: tag) ?? ""].joined(separator: "\u{1F}")
                counts[key, default: 0] += 1
            }
        }
        return counts
    }

    /// The value of ` name="…"` in a tag (attribute values are escaped, so they hold no `"`).
    static func attribute(_ name: String, in tag: Substring) -> String? {
        guard let start = tag.range(of: " \(name)=\"") else { return nil }
        let value = tag[start.upperBound...].prefix { $0 != "\"" }
        return String(value)
    }

    @Test("three shards of the server lane over the corpus, Conformance and the recordings hold exactly the unsharded run's testcases")
    func shardsMakeTheRun() async throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accord-shards-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let inputs = [
            AccordBinary.sharedCorpus, AccordBinary.packageRoot + "/Conformance",
            AccordBinary.packageRoot + "/Recordings/multi-user-sync.jsonl", AccordBinary.packageRoot + "/Recordings/schema-reset.jsonl",
            AccordBinary.packageRoot + "/Recordings/wall-clock-deletes.jsonl",
            "--scenarios", AccordBinary.packageRoot + "/../shared/corpus-scenarios.json",
        ]
        let whole = try await AccordBinary.run(["run", "--server", "embedded"] + inputs + ["--junit", folder + "/all.xml", "--quiet"])
        #expect([0, 1].contains(whole.status), "\(whole.stdout)\(whole.stderr)")
        let all = Self.identities(try String(contentsOfFile: folder + "/all.xml", encoding: .utf8))
        var union: [String: Int] = [:]
        for index in 1...3 {
            let path = folder + "/shard-\(index).xml"
            let shard = try await AccordBinary.run(
                ["run", "--server", "embedded"] + inputs + ["--shard", "\(index)/3", "--junit", path, "--quiet"])
            #expect([0, 1].contains(shard.status), "shard \(index): \(shard.stdout)\(shard.stderr)")
            let part = Self.identities(try String(contentsOfFile: path, encoding: .utf8))
            #expect(!part.isEmpty, "shard \(index) holds no testcase")
            for (key, count) in part { union[key, default: 0] += count }
        }
        #expect(all.values.reduce(0, +) > 100, "the run holds \(all.count) testcases")
        let missing = all.filter { union[$0.key] != $0.value }.map(\.key).sorted()
        let extra = union.filter { all[$0.key] == nil }.map(\.key).sorted()
        #expect(missing.isEmpty, "in the run but not (as often) in the shards: \(missing.prefix(5))")
        #expect(extra.isEmpty, "in the shards but not in the run: \(extra.prefix(5))")
    }
}
