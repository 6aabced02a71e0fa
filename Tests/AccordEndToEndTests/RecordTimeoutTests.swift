import AccordTestSupport
import Foundation
import Testing

/// `accord record --upstream-timeout` in front of an upstream that accepts connections and
/// answers nothing.
@Suite("accord record --upstream-timeout")
struct RecordTimeoutTests {
    /// Accepts connections, reads nothing, answers nothing; exits by itself after 30 s.
    static let silentUpstream = """
        import socket, time
        s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(8); s.settimeout(0.2)
        print(s.getsockname()[1], flush=True)
        held, end = [], time.time() + 30
        while time.time() < end:
            try: held.append(s.accept()[0])
            except socket.timeout: pass
        """

    struct Outcome: Sendable {
        var curl: String
        var status: Int32
        var recording: String
        var stdout: String
    }

    @Test("the flag reaches the proxy: a silent upstream gets 504 after about that long, recorded; SIGINT still exits 0")
    func silentUpstream() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let recording = folder.appendingPathComponent("timeout.jsonl").path
        // Every wait below blocks: it runs on a thread of its own, never on the concurrency pool.
        let outcome: Outcome = try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(with: Result { try Self.drive(recording: recording) })
            }
        }
        let fields = outcome.curl.split(separator: " ")
        #expect(fields.first == "504", "curl wrote \(outcome.curl)")
        let seconds = try #require(fields.count > 1 ? Double(fields[1]) : nil)
        #expect(seconds >= 0.4 && seconds < 8, "504 after \(seconds) s with --upstream-timeout 0.5")
        #expect(outcome.status == 0, "\(outcome.stdout)")
        #expect(outcome.recording.contains("\"status\":504"), "\(outcome.recording)")
        #expect(outcome.recording.contains("timed out"), "\(outcome.recording)")
    }

    /// Starts the silent upstream and `accord record`, fetches through it with curl, stops both.
    static func drive(recording: String) throws -> Outcome {
        let upstream = ChildProcess()
        upstream.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        upstream.arguments = ["python3", "-c", silentUpstream]
        let upstreamOut = Pipe()
        upstream.standardOutput = upstreamOut
        try upstream.run()
        // The upstream never ends by itself; ChildProcess reaps it.
        defer { upstream.send(SIGKILL) }
        let upstreamPort = try firstLine(upstreamOut).trimmingCharacters(in: .whitespaces)

        let proxy = ChildProcess()
        proxy.executableURL = URL(fileURLWithPath: AccordBinary.path)
        proxy.arguments = [
            "record", "--upstream", "http://127.0.0.1:\(upstreamPort)", "--listen", "127.0.0.1:0", "--out", recording,
            "--upstream-timeout", "0.5", "--quiet",
        ]
        let proxyOut = Pipe()
        proxy.standardOutput = proxyOut
        proxy.standardError = FileHandle.nullDevice
        try proxy.run()
        defer { if proxy.isRunning { proxy.terminate() } }
        let listening = try firstLine(proxyOut)
        guard let colon = listening.range(of: "127.0.0.1:"), let port = Int(listening[colon.upperBound...].prefix(while: \.isNumber))
        else { throw CocoaError(.fileReadCorruptFile, userInfo: [NSLocalizedDescriptionKey: "no listening line: \(listening)"]) }

        let curl = ChildProcess()
        curl.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        curl.arguments = [
            "curl", "-s", "-o", "/dev/null", "-w", "%{http_code} %{time_total}", "--max-time", "15",
            "http://127.0.0.1:\(port)/rest/v1/rpc/pull",
        ]
        let curlOut = Pipe()
        curl.standardOutput = curlOut
        try curl.run()
        let written = String(decoding: curlOut.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        curl.waitUntilExit()

        proxy.interrupt()
        let rest = String(decoding: proxyOut.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        proxy.waitUntilExit()
        let recorded = String(decoding: (try? Data(contentsOf: URL(fileURLWithPath: recording))) ?? Data(), as: UTF8.self)
        return Outcome(curl: written, status: proxy.terminationStatus, recording: recorded, stdout: listening + "\n" + rest)
    }

    /// The first line a child writes to `pipe`, without its newline.
    static func firstLine(_ pipe: Pipe) throws -> String {
        var line: [UInt8] = []
        while let byte = try pipe.fileHandleForReading.read(upToCount: 1)?.first, byte != 0x0A { line.append(byte) }
        return String(decoding: line, as: UTF8.self)
    }
}
