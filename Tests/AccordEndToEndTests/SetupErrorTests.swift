import Foundation
import Testing

/// A setup mistake is one line and exit 78 before the first case, never a run of failures; a run
/// in which no check ran is one too, unless --allow-empty.
@Suite("setup mistakes: one line, exit 78", .serialized)
struct SetupErrorTests {
    /// Expects exit 78, nothing on stdout, and one `accord: error: setup: …` line on stderr holding every fragment.
    static func expectSetupLine(_ result: AccordBinary.Result, _ fragments: [String], sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(
            result.status == 78, "exit \(result.status); stdout: \(result.stdout) stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(result.stdout.isEmpty, "stdout: \(result.stdout)", sourceLocation: sourceLocation)
        let lines = result.stderr.split(separator: "\n", omittingEmptySubsequences: true)
        #expect(lines.count == 1, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        #expect(lines.first?.hasPrefix("accord: error: setup: ") == true, "stderr: \(result.stderr)", sourceLocation: sourceLocation)
        for fragment in fragments {
            #expect(result.stderr.contains(fragment), "'\(fragment)' missing from: \(result.stderr)", sourceLocation: sourceLocation)
        }
    }

    @Test("a wrong --jwt-secret: the minted JWT is refused, said once, not as 101 AC-GOLDEN failures")
    func wrongSecret() async throws {
        let served = try ServeEndToEndTests.Served(["--jwt-secret", "right", "--fixtures"])
        defer { _ = served.stop() }
        let result = try await AccordBinary.run([
            "run", "--server", "http://127.0.0.1:\(served.port)", "--jwt-secret", "wrong", AccordBinary.sharedCorpus,
        ])
        Self.expectSetupLine(result, ["refused the runner's credentials", "HTTP 401", "PGRST301", "--jwt-secret"])
    }

    @Test("a server that is down (a closed loopback port): not reachable, said once")
    func serverDown() async throws {
        // A port bound and never listened on refuses every connection, and no other test's server
        // can take it while the run is on (a port a stopped server gave back could be).
        let closed = try #require(ClosedPort())
        defer { closed.release() }
        let port = closed.port
        let result = try await AccordBinary.run([
            "run", "--server", "http://127.0.0.1:\(port)", "--jwt-secret", "s", AccordBinary.sharedCorpus,
        ])
        Self.expectSetupLine(result, ["127.0.0.1:\(port) is not reachable", "start it"])
    }

    @Test("accord serve without --fixtures: the fixture endpoint is off, said once")
    func fixturesOff() async throws {
        let served = try ServeEndToEndTests.Served(["--jwt-secret", "s"])
        defer { _ = served.stop() }
        let result = try await AccordBinary.run([
            "run", "--server", "http://127.0.0.1:\(served.port)", "--jwt-secret", "s", AccordBinary.sharedCorpus,
        ])
        Self.expectSetupLine(result, ["the fixture endpoint is off", "HTTP 404", "--fixtures"])
    }

    @Test(
        "a base URL with the REST mount (what a Supabase user pastes): named as such with the base URL to pass, not as the fixture endpoint being off"
    )
    func restMountInURL() async throws {
        let served = try ServeEndToEndTests.Served(["--jwt-secret", "s", "--fixtures"])
        defer { _ = served.stop() }
        let result = try await AccordBinary.run([
            "run", "--server", "http://127.0.0.1:\(served.port)/rest/v1/", "--jwt-secret", "s", AccordBinary.sharedCorpus,
        ])
        Self.expectSetupLine(
            result, ["ends in /rest/v1, which Accord adds itself", "pass the server's base URL, http://127.0.0.1:\(served.port)"])
        #expect(!result.stderr.contains("fixture endpoint is off"))
    }

    @Test("a URL whose path is not where the server is mounted: the 404 says so beside the fixture endpoint")
    func otherPathInURL() async throws {
        let served = try ServeEndToEndTests.Served(["--jwt-secret", "s", "--fixtures"])
        defer { _ = served.stop() }
        let result = try await AccordBinary.run([
            "run", "--server", "http://127.0.0.1:\(served.port)/api", "--jwt-secret", "s", AccordBinary.sharedCorpus,
        ])
        Self.expectSetupLine(result, ["HTTP 404", "pass the URL the server is mounted at", "to /api"])
    }

    @Test(
        "accord diff against a server without its fixture endpoint: one setup line and exit 78, as accord run says it, not an error per recording"
    )
    func diffFixturesOff() async throws {
        let served = try ServeEndToEndTests.Served(["--jwt-secret", "s"])
        defer { _ = served.stop() }
        let recordings = try FileManager.default.contentsOfDirectory(atPath: AccordBinary.packageRoot + "/Recordings")
            .filter { $0.hasSuffix(".jsonl") }.sorted().map { AccordBinary.packageRoot + "/Recordings/" + $0 }
        let result = try await AccordBinary.run(
            ["diff", "--server", "embedded", "--server", "http://127.0.0.1:\(served.port)", "--jwt-secret", "s"] + recordings)
        Self.expectSetupLine(result, ["the fixture endpoint is off", "HTTP 404", "--fixtures"])
    }

    @Test("accord selftest without the upstream corpus: one setup line naming the folder and how to give it, exit 78")
    func selftestWithoutCorpus() async throws {
        let result = try await AccordBinary.run(["selftest", "--corpus", "/nonexistent/protocol"])
        Self.expectSetupLine(
            result, ["selftest plays the upstream corpus, and /nonexistent/protocol holds no cases/manifest.json", "pass --corpus FOLDER"])
    }

    @Test("a driver command that does not exist: not found, said once, not CL-DRIVER per case")
    func driverNotFound() async throws {
        let result = try await AccordBinary.run(["run", "--client", "accord-no-such-driver-here", AccordBinary.sharedCorpus])
        Self.expectSetupLine(result, ["'accord-no-such-driver-here' was not found", "127", "--client"])
    }

    @Test("a driver that never says hello costs --timeout once, not 10 s per case")
    func silentDriver() async throws {
        let started = ContinuousClock.now
        let result = try await AccordBinary.run(["run", "--client", "sleep 60", "--timeout", "1", AccordBinary.sharedCorpus])
        let elapsed = ContinuousClock.now - started
        Self.expectSetupLine(result, ["'sleep 60' did not answer hello within 1.0 seconds", "--timeout"])
        #expect(elapsed < .seconds(8), "took \(elapsed)")
    }

    @Test("a driver that answers hello with something else does not speak the protocol")
    func notADriver() async throws {
        let result = try await AccordBinary.run(["run", "--client", "echo hello", AccordBinary.sharedCorpus])
        Self.expectSetupLine(result, ["'echo hello' does not speak the driver protocol", "DRIVER_BAD_JSON", "docs/driver-protocol.md"])
    }

    @Test("a run whose every testcase is skipped exits 78 with one line after its summary; --allow-empty accepts it")
    func allSkipped() async throws {
        let recording = AccordBinary.packageRoot + "/Recordings/multi-user-sync.jsonl"
        let killed = try await AccordBinary.run(["run", "--client", "accord driver", "--kill-matrix", recording])
        #expect(killed.status == 78, "\(killed.stdout)\(killed.stderr)")
        #expect(killed.stdout.contains("0 passed, 0 failed, 1 skipped, 0 errors"), "\(killed.stdout)")
        #expect(killed.stderr.split(separator: "\n").count == 1, "\(killed.stderr)")
        #expect(killed.stderr.hasPrefix("accord: error: setup: nothing was checked: all 1 testcases were skipped"), "\(killed.stderr)")
        #expect(killed.stderr.contains("recordings are not played under the kill matrix"), "\(killed.stderr)")
        let allowed = try await AccordBinary.run(["run", "--client", "accord driver", "--kill-matrix", recording, "--allow-empty"])
        #expect(allowed.status == 0, "\(allowed.stdout)\(allowed.stderr)")
        // A corpus case of client steps only: the server lane checks nothing in it.
        let server = try await AccordBinary.run([
            "run", "--server", "embedded", AccordBinary.sharedCorpus, "--filter", "lifecycle/004-soft-delete-violation",
        ])
        #expect(server.status == 78, "\(server.stdout)\(server.stderr)")
        #expect(server.stderr.contains("nothing was checked"), "\(server.stderr)")
    }
}

/// A loopback port bound but never listened on: connecting to it is refused, and nothing else can
/// bind it until `release()`.
private struct ClosedPort {
    let fd: Int32
    let port: UInt16

    init?() {
        fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = self.fd
        let bound = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) == 0 && getsockname(fd, $0, &length) == 0 }
        }
        guard fd >= 0, bound else {
            close(fd)
            return nil
        }
        port = UInt16(bigEndian: address.sin_port)
    }

    func release() { close(fd) }
}
