import AccordTestSupport
import Foundation
import HTTP
import ReferenceServer
import Serve
import Testing

/// Reports a team can act on (issue 22): over the whole shared corpus in the server lane, the
/// client lane and the kill matrix, every JUnit testcase has its own (classname, name); a green
/// server-lane run skips nothing; and a server that reverses two verdicts fails with I-5 first.
@Suite("JUnit identities and root causes", .serialized)
struct ReportIdentityTests {
    static var scenarios: String { AccordBinary.packageRoot + "/../shared/corpus-scenarios.json" }
    static var driver: String { "'\(AccordBinary.path)' driver" }

    /// Runs a lane over the shared corpus (the server lane with its scenarios) and parses its JUnit report.
    static func junit(_ lane: [String], expectStatus: Int32 = 0) async throws -> (JUnitCases, AccordBinary.Result) {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("report.xml").path
        let setup = lane.first == "--server" ? ["--scenarios", scenarios] : []
        let result = try await AccordBinary.run(["run"] + lane + [AccordBinary.sharedCorpus, "--junit", path] + setup)
        #expect(result.status == expectStatus, "\(result.stdout)\(result.stderr)")
        return (try JUnitCases(try Data(contentsOf: URL(fileURLWithPath: path))), result)
    }

    @Test(
        "no (classname, name) pair repeats in a lane's report, and each classname names one case",
        arguments: [
            (["--server", "embedded"], "kizuna.server."), (["--client", "DRIVER"], "kizuna.client."),
            (["--client", "DRIVER", "--kill-matrix"], "kizuna.kill."),
        ])
    func identitiesAreUnique(_ lane: [String], prefix: String) async throws {
        let (report, _) = try await Self.junit(lane.map { $0 == "DRIVER" ? Self.driver : $0 })
        #expect(report.cases.count > 100)
        #expect(report.repeatedPairs.isEmpty, "\(report.repeatedPairs.sorted { $0.key < $1.key }.prefix(5))")
        #expect(
            report.cases.allSatisfy { $0.classname.hasPrefix(prefix) },
            "\(report.cases.filter { !$0.classname.hasPrefix(prefix) }.prefix(3))")
        // A classname is one case: the area alone (kizuna.push) would hold many cases' steps.
        let areaOnly = report.cases.filter { $0.classname.split(separator: ".").count < 4 }
        #expect(areaOnly.isEmpty, "\(areaOnly.prefix(3))")
        #expect(report.cases.contains { Double($0.time).map { $0 > 0 } == true }, "testcases carry their durations")
        if lane.contains("--kill-matrix") {
            #expect(report.cases.contains { $0.classname.contains("@after-push-sent") })
        }
    }

    @Test(
        "a green server-lane run has no skipped testcase, counts what it left to the client lane, and names its cases the same way every run"
    )
    func greenServerRunSkipsNothing() async throws {
        let (report, result) = try await Self.junit(["--server", "embedded"])
        let (again, _) = try await Self.junit(["--server", "embedded", "--jobs", "1"])
        #expect(again.cases.map { "\($0.classname) : \($0.name)" } == report.cases.map { "\($0.classname) : \($0.name)" })
        #expect(again.properties == report.properties)
        let skipped = report.cases.filter { $0.skipped != nil }
        #expect(skipped.isEmpty, "\(skipped.prefix(3))")
        #expect(!report.cases.contains { $0.name.hasPrefix("postcondition") })
        let left = report.properties.values.compactMap { $0["left_to_client_lane"].flatMap(Int.init) }.reduce(0, +)
        #expect(left > 0)
        #expect(result.stdout.contains("; \(left) steps left to the client lane"), "\(result.stdout)")
    }

    @Test("the reversed-verdicts server fails with I-5 first: one <failure> per testcase, typed I-5, naming both mutation ids")
    func reversedVerdictsNameI5() async throws {
        let secret = "reversed-verdicts-secret"
        var configuration = HTTPServerConfiguration()
        configuration.host = "127.0.0.1"
        configuration.port = 0
        let server = try PostgRESTRouter(
            target: ReversedVerdictsServer(try ReferenceServer()), key: JWTKey(secret: secret), fixtures: true
        ).serve(configuration)
        let url = "http://127.0.0.1:\(server.port)"
        let report: JUnitCases
        let result: AccordBinary.Result
        do {
            (report, result) = try await Self.junit(["--server", url, "--jwt-secret", secret], expectStatus: 1)
        } catch {
            await server.stop()
            throw error
        }
        await server.stop()
        let failed = report.cases.filter { !$0.failures.isEmpty }
        try #require(!failed.isEmpty)
        #expect(failed.allSatisfy { $0.failures.count == 1 }, "one <failure> per testcase")
        let reversed = try #require(failed.first { $0.failures.first?.type == "I-5" }, "\(failed.map(\.failures))")
        let failure = try #require(reversed.failures.first)
        #expect(failure.message.contains("I-5 verdict 0 answers "))
        #expect(!failed.contains { $0.failures.first?.type == "AC-GOLDEN" && $0.failures.first?.text.contains("I-5") == true })
        // The body lists every finding, then the golden difference with its values and the verdict it is in.
        #expect(failure.text.contains("AC-GOLDEN: "), "\(failure.text)")
        #expect(failure.text.contains("in the verdict for mutation "), "\(failure.text)")
        #expect(failure.text.contains("expected: \""), "\(failure.text)")
        // The console's first failure line is the same root cause, naming both mutation ids.
        let first = try #require(result.stdout.split(separator: "\n").first { $0.hasPrefix("FAIL ") }.map(String.init))
        let ids = try #require(Self.verdictIDs(in: first))
        #expect(first.contains("I-5 verdict 0 answers \(ids.answered), expected \(ids.expected)"), "\(first)")
        #expect(ids.answered != ids.expected)
        #expect(first.contains("(+") && first.contains("AC-GOLDEN"), "\(first)")
    }

    /// The two mutation ids of "verdict 0 answers A, expected B".
    static func verdictIDs(in line: String) -> (answered: String, expected: String)? {
        guard let range = line.range(of: "verdict 0 answers ") else { return nil }
        let rest = line[range.upperBound...]
        let words = rest.split(separator: " ", maxSplits: 3)
        guard words.count >= 3, words[1] == "expected" else { return nil }
        return (String(words[0].dropLast()), String(words[2]))
    }
}
