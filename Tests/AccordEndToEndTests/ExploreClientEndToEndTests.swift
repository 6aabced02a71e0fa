import Foundation
import JSON
import Testing

/// `accord explore --client` as a team runs it (issue 39): the built binary explores a driver,
/// the reference client passes, every seeded client fault of `accord selftest` is found and kept
/// as a case that `accord run --client` replays.
@Suite("accord explore --client, end to end", .serialized)
struct ExploreClientEndToEndTests {
    /// The client faults of `accord selftest` (`ClientFault`), by name.
    static let clientFaults = [
        "push-after-reset", "split-atomic-run", "new-id-on-resend", "commit-staged-page", "skip-bijection-check",
        "resurrect-under-tombstone", "two-transaction-write", "cursor-before-data", "share-store-across-identities", "ack-failed-write",
        "drop-cursor-on-failed-commit",
    ]

    @Test("the reference client, kills and storage faults on, raises nothing: exit 0, the client's three oracles in the JUnit")
    func referenceClientIsClean() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let junit = folder.appendingPathComponent("explore.xml").path
        let result = try await AccordBinary.run([
            "explore", "--client", "accord driver", "--budget", "60", "--findings", folder.path + "/findings", "--junit", junit,
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains(#"<testsuites name="accord explore --client accord driver --seed 1">"#), "\(xml)")
        #expect(xml.contains("requests equal to the reference client's over 30 scenarios"), "\(xml)")
        #expect(xml.contains("clients held their users' rows after the closing phase"), "\(xml)")
        #expect(!FileManager.default.fileExists(atPath: folder.path + "/findings"))
    }

    @Test(
        "every seeded client fault of the self-test is found from seed 1 within 300 scenarios and shrunk to at most 10 steps",
        arguments: clientFaults)
    func seededClientFault(_ fault: String) async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let findings = folder.path + "/findings"
        let junit = folder.path + "/explore.xml"
        let result = try await AccordBinary.run([
            "explore", "--client", "accord driver --fault \(fault)", "--budget", "300", "--jobs", "1", "--findings", findings, "--junit",
            junit,
        ])
        #expect(result.status == 1, "\(fault): \(result.stdout)\(result.stderr)")
        let steps = try #require(try ExploreEndToEndTests.kept(findings).first).steps
        #expect(steps.count <= 10, "\(fault): kept \(steps.count) steps")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("shrunk to \(steps.count) steps"), "\(xml)")
    }

    @Test("a kept client finding replays with accord run --client: it fails the faulty driver and passes the reference client")
    func keptFindingReplays() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let findings = folder.path + "/findings"
        let junit = folder.path + "/explore.xml"
        let found = try await AccordBinary.run([
            "explore", "--client", "accord driver --fault split-atomic-run", "--budget", "50", "--jobs", "1", "--findings", findings,
            "--junit", junit,
        ])
        #expect(found.status == 1, "\(found.stdout)\(found.stderr)")
        #expect(found.stdout.contains("CL-ATOMIC-RUN"), "\(found.stdout)")
        let xml = try String(contentsOfFile: junit, encoding: .utf8)
        #expect(xml.contains("--filter 'push/001-explore-cl-atomic-run' --client 'accord driver --fault split-atomic-run'"), "\(xml)")
        let faulty = try await AccordBinary.run(["run", findings, "--client", "accord driver --fault split-atomic-run"])
        #expect(faulty.status == 1, "\(faulty.stdout)\(faulty.stderr)")
        #expect(faulty.stdout.contains("CL-ATOMIC-RUN"), "\(faulty.stdout)")
        let reference = try await AccordBinary.run(["run", findings, "--client", "accord driver"])
        #expect(reference.status == 0, "the golden requests are the reference client's: \(reference.stdout)\(reference.stderr)")
    }

    @Test("--client with --server, or a server's option with --client, is a usage error; a driver that does not start is a setup error")
    func mistakes() async throws {
        let both = try await AccordBinary.run(["explore", "--client", "accord driver", "--server", "embedded"])
        #expect(both.status == 64, "\(both.stderr)")
        let serverOption = try await AccordBinary.run(["explore", "--client", "accord driver", "--fault", "verdict-dropped"])
        #expect(serverOption.status == 64, "\(serverOption.stderr)")
        let clientOption = try await AccordBinary.run(["explore", "--server", "embedded", "--no-kills"])
        #expect(clientOption.status == 64, "\(clientOption.stderr)")
        let missing = try await AccordBinary.run(["explore", "--client", "/nonexistent/driver", "--budget", "2"])
        #expect(missing.status == 78, "\(missing.stdout)\(missing.stderr)")
    }
}
