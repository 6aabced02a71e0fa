import Foundation
import Testing

/// `accord serve --fixtures` on loopback, driven by `accord run --server URL`: the server lane
/// over real HTTP, JWTs minted and verified with a shared secret.
@Suite("accord serve over loopback HTTP", .serialized)
struct ServeEndToEndTests {
    /// A running `accord serve`, stopped with SIGINT at the end of the test.
    final class Served {
        let process = Process()
        let port: Int
        let output: Pipe

        init(_ arguments: [String]) throws {
            process.executableURL = URL(fileURLWithPath: AccordBinary.path)
            process.arguments = ["serve", "--listen", "127.0.0.1:0"] + arguments
            output = Pipe()
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            var line: [UInt8] = []
            while let byte = try output.fileHandleForReading.read(upToCount: 1)?.first, byte != 0x0A { line.append(byte) }
            let text = String(decoding: line, as: UTF8.self)
            guard let colon = text.range(of: "127.0.0.1:"), let port = Int(text[colon.upperBound...].prefix(while: \.isNumber)) else {
                process.terminate()
                throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no listening line: \(text)"])
            }
            self.port = port
        }

        func stop() -> (status: Int32, rest: String) {
            process.interrupt()
            process.waitUntilExit()
            let rest = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            return (process.terminationStatus, rest)
        }

        deinit { if process.isRunning { process.terminate() } }
    }

    @Test("the whole corpus passes over HTTP at tier pass, and SIGINT stops the server cleanly")
    func corpusOverHTTP() throws {
        let served = try Served(["--jwt-secret", "e2e-secret", "--fixtures"])
        let result = try AccordBinary.run([
            "run", "--server", "http://127.0.0.1:\(served.port)", "--jwt-secret", "e2e-secret", AccordBinary.sharedCorpus,
            "--scenarios", AccordBinary.packageRoot + "/../shared/corpus-scenarios.json",
        ])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("41 suites (39 passed, 0 failed, 2 skipped)"), "\(result.stdout)")
        let stopped = served.stop()
        #expect(stopped.status == 0)
        #expect(stopped.rest.contains("accord serve: stopped"))
    }

    @Test("a wrong JWT secret is refused by the server and the run fails, not hangs")
    func wrongSecret() throws {
        let served = try Served(["--jwt-secret", "right", "--fixtures"])
        defer { _ = served.stop() }
        let result = try AccordBinary.run([
            "run", "--server", "http://127.0.0.1:\(served.port)", "--jwt-secret", "wrong", AccordBinary.sharedCorpus, "--filter",
            "push/001*",
        ])
        #expect(result.status == 1)
        #expect(result.stdout.contains("HTTP 401"), "\(result.stdout)")
    }

    @Test("without --fixtures the fixture endpoint is closed and cases error out")
    func fixturesClosed() throws {
        let served = try Served(["--jwt-secret", "s"])
        defer { _ = served.stop() }
        let result = try AccordBinary.run([
            "run", "--server", "http://127.0.0.1:\(served.port)", "--jwt-secret", "s", AccordBinary.sharedCorpus, "--filter", "push/001*",
        ])
        #expect(result.status == 1)
    }

    @Test("serve refuses --fixtures on a non-loopback listener and a missing secret")
    func serveUsage() throws {
        #expect(try AccordBinary.run(["serve", "--listen", "0.0.0.0:0", "--jwt-secret", "s", "--fixtures"]).status == 64)
        #expect(try AccordBinary.run(["serve", "--listen", "127.0.0.1:0"]).status == 64)
    }
}
