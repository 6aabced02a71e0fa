import Foundation
import JSON
import Testing

/// `accord explore` as a team runs it (issue 39): the built binary against the embedded reference,
/// against a seeded fault, and against a server over HTTP; what it keeps replays with `accord run`.
@Suite("accord explore, end to end", .serialized)
struct ExploreEndToEndTests {
    @Test("against the embedded reference it finds nothing and exits 0, with JUnit naming the lane, seed and budget")
    func clean() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("explore.xml").path
        let result = try await AccordBinary.run([
            "explore", "--server", "embedded", "--budget", "40", "--seed", "3", "--findings", folder.path + "/findings", "--junit", junit,
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<property name="lane" value="explore"/>"#))
        #expect(xml.contains(#"<property name="seed" value="3"/>"#))
        #expect(xml.contains(#"<property name="budget" value="40 scenarios"/>"#))
        #expect(xml.contains("over 20 scenarios that raised nothing"), "two stripes of 20: \(xml)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/findings"))
    }

    @Test(
        "a seeded fault is found, shrunk and kept as a corpus case: exit 1; the case passes on the reference and fails on the faulty server over HTTP"
    )
    func seededFaultKeptAndReplayed() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let findings = folder.path + "/findings"
        let result = try await AccordBinary.run([
            "explore", "--server", "embedded", "--fault", "verdict-dropped", "--budget", "100", "--jobs", "1", "--findings", findings,
        ])
        #expect(result.status == 1, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("I-5"), "\(result.stdout)")
        let kept = try #require(try Self.kept(findings).first)
        let caseID = try #require(kept.entry["id"]?.stringValue)
        #expect(caseID.hasPrefix("push/001-explore-i-5"))
        #expect(kept.steps.count <= 10)

        let reference = try await AccordBinary.run(["run", findings, "--server", "embedded"])
        #expect(reference.status == 0, "the golden answers are the reference's: \(reference.stdout)\(reference.stderr)")

        let served = try ServeEndToEndTests.Served(["--jwt-secret", "explore-e2e", "--fixtures", "--fault", "verdict-dropped"])
        let faulty = try await AccordBinary.run([
            "run", findings, "--server", "http://127.0.0.1:\(served.port)", "--jwt-secret", "explore-e2e",
        ])
        _ = served.stop()
        #expect(faulty.status == 1, "\(faulty.stdout)\(faulty.stderr)")
        #expect(faulty.stdout.contains("I-5"), "\(faulty.stdout)")

        let again = try await AccordBinary.run([
            "explore", "--server", "embedded", "--fault", "verdict-dropped", "--budget", "100", "--jobs", "1", "--findings", findings,
        ])
        #expect(again.status == 1)
        let grown = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: findings + "/cases/manifest.json"))))
        #expect(
            grown["cases"]?.arrayValue?.compactMap { $0["id"]?.stringValue }.map { String($0.prefix(8)) } == ["push/001", "push/002"],
            "a second run adds its finding beside the first")
    }

    @Test("a server over HTTP is explored as the embedded one: a correct one passes")
    func overHTTP() async throws {
        let served = try ServeEndToEndTests.Served(["--jwt-secret", "explore-http", "--fixtures"])
        let result = try await AccordBinary.run([
            "explore", "--server", "http://127.0.0.1:\(served.port)", "--jwt-secret", "explore-http", "--budget", "15",
        ])
        _ = served.stop()
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
    }

    @Test(
        "accord shrink cuts a recording failing on a seeded fault to a case that fails the same rule over HTTP and passes on the reference; a recording that passes has nothing to shrink"
    )
    func shrinkRecording() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let findings = folder.path + "/findings"
        let recording = AccordBinary.packageRoot + "/Recordings/multi-user-sync.jsonl"
        let clean = try await AccordBinary.run(["shrink", recording, "--server", "embedded", "--findings", findings])
        #expect(clean.status == 0, "\(clean.stdout)\(clean.stderr)")
        #expect(clean.stdout.contains("without a failure: nothing to shrink"))

        let shrunk = try await AccordBinary.run([
            "shrink", recording, "--server", "embedded", "--fault", "verdict-dropped", "--findings", findings,
        ])
        #expect(shrunk.status == 1, "\(shrunk.stdout)\(shrunk.stderr)")
        #expect(shrunk.stdout.contains("I-5"))
        #expect(shrunk.stdout.contains("from 16 exchanges to 1 in"), "\(shrunk.stdout)")
        #expect((try Self.kept(findings).first?.steps.count ?? 99) <= 10)

        let reference = try await AccordBinary.run(["run", findings, "--server", "embedded"])
        #expect(reference.status == 0, "\(reference.stdout)\(reference.stderr)")
        let served = try ServeEndToEndTests.Served(["--jwt-secret", "shrink-e2e", "--fixtures", "--fault", "verdict-dropped"])
        let faulty = try await AccordBinary.run([
            "run", findings, "--server", "http://127.0.0.1:\(served.port)", "--jwt-secret", "shrink-e2e",
        ])
        _ = served.stop()
        #expect(faulty.status == 1, "\(faulty.stdout)\(faulty.stderr)")
        #expect(faulty.stdout.contains("I-5"), "\(faulty.stdout)")

        let noServer = try await AccordBinary.run(["shrink", recording])
        #expect(noServer.status == 64)
    }

    @Test("usage and setup mistakes exit 64 and 78 with one line")
    func mistakes() async throws {
        let noServer = try await AccordBinary.run(["explore"])
        #expect(noServer.status == 64)
        let badBudget = try await AccordBinary.run(["explore", "--server", "embedded", "--budget", "soon"])
        #expect(badBudget.status == 64)
        #expect(badBudget.stderr.contains("--budget takes a count of scenarios or a time such as 60s, found 'soon'"), "\(badBudget.stderr)")
        let faultElsewhere = try await AccordBinary.run([
            "explore", "--server", "http://127.0.0.1:9", "--jwt-secret", "s", "--fault", "verdict-dropped",
        ])
        #expect(faultElsewhere.status == 64)
        let unreachable = try await AccordBinary.run(["explore", "--server", "http://127.0.0.1:9", "--jwt-secret", "s", "--budget", "3"])
        #expect(unreachable.status == 78, "\(unreachable.stdout)\(unreachable.stderr)")
        #expect(unreachable.stderr.split(separator: "\n").count == 1, "\(unreachable.stderr)")
    }
}

extension ExploreEndToEndTests {
    /// What a findings folder of `accord explore` or `accord shrink` keeps: each manifest entry, in
    /// order, with the steps of the transcript it names.
    static func kept(_ findings: String) throws -> [(entry: JSONValue, steps: [JSONValue])] {
        let manifest = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: findings + "/cases/manifest.json"))))
        return try (manifest["cases"]?.arrayValue ?? []).map { entry in
            let file = try #require(entry["file"]?.stringValue)
            let transcript = try JSONParser.parse(Array(try Data(contentsOf: URL(fileURLWithPath: findings + "/" + file))))
            return (entry, try #require(transcript["steps"]?.arrayValue, "\(file) has no steps"))
        }
    }
}
