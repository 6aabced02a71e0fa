import Foundation
import Testing

/// Canary secrets sent through `accord record` (a JWT, an apikey, a refresh token in a body, a
/// token in a query string) appear in no recording, report or log.
@Suite("accord record keeps secrets out of recordings, reports and logs", .serialized)
struct RecordCanaryTests {
    static let jwt =
        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzZXNzaW9uX2lkIjoiMDAwMDAwMDAtMDAwMC00MDAwLTgwMDAtYzEwMDAwMDAwMDAxIiwic3ViIjoiMDAwMDAwMDAtMDAwMC00MDAwLTgwMDAtYTEwMDAwMDAwMDAxIn0.Y2FuYXJ5LXNpZ25hdHVyZS1jYW5hcnk"
    static let apikey = "sb_publishable_canary_apikey_7f3a"
    static let refresh = "canary-refresh-token-91b2"
    static let query = "canary-query-token-c4d5"

    static func curl(_ arguments: [String]) async throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["curl", "-s", "--max-time", "10"] + arguments
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }

    @Test("no canary in the recording, the proxy's output, or the reports of check and replay")
    func canaries() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let served = try ServeEndToEndTests.Served(["--jwt-secret", "canary-secret"])
        defer { _ = served.stop() }
        let recording = folder.appendingPathComponent("canary.jsonl").path
        let proxy = Process()
        proxy.executableURL = URL(fileURLWithPath: AccordBinary.path)
        proxy.arguments = ["record", "--upstream", "http://127.0.0.1:\(served.port)", "--listen", "127.0.0.1:0", "--out", recording]
        let log = Pipe()
        let errors = folder.appendingPathComponent("record.err")
        _ = FileManager.default.createFile(atPath: errors.path, contents: nil)
        proxy.standardOutput = log
        proxy.standardError = try FileHandle(forWritingTo: errors)
        try proxy.run()
        var line: [UInt8] = []
        while let byte = try log.fileHandleForReading.read(upToCount: 1)?.first, byte != 0x0A { line.append(byte) }
        let text = String(decoding: line, as: UTF8.self)
        let port = try #require(text.range(of: "127.0.0.1:").map { Int(text[$0.upperBound...].prefix(while: \.isNumber)) } ?? nil)
        let base = "http://127.0.0.1:\(port)"
        let pull =
            #"{"buckets":[{"params":{"owner_id":"00000000-0000-4000-8000-a10000000001"},"table":"todos"}],"client_id":"00000000-0000-4000-8000-c10000000001","cursor":"0","schema_version":1}"#
        let headers = [
            "-H", "Authorization: Bearer \(Self.jwt)", "-H", "apikey: \(Self.apikey)", "-H", "Content-Type: application/json",
            "-H", "Content-Profile: kizunasync",
        ]
        _ = try await Self.curl(headers + ["-X", "POST", "--data", pull, base + "/rest/v1/rpc/pull"])
        _ = try await Self.curl(
            headers + [
                "-X", "POST", "--data", #"{"refresh_token":"\#(Self.refresh)","grant_type":"refresh_token"}"#,
                base + "/auth/v1/token?access_token=\(Self.query)",
            ])
        proxy.interrupt()
        proxy.waitUntilExit()
        let rest = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        let junit = folder.appendingPathComponent("check.xml").path
        let json = folder.appendingPathComponent("check.json").path
        let check = try await AccordBinary.run(["check", recording, "--junit", junit, "--json", json])
        #expect(check.status == 0, "\(check.stdout)\(check.stderr)")
        let replay = try await AccordBinary.run(["run", "--server", "embedded", recording, "--junit", junit + ".run"])
        var texts = [text, rest, String(decoding: try Data(contentsOf: errors), as: UTF8.self), check.stdout, check.stderr]
        texts += [replay.stdout, replay.stderr]
        for path in [recording, junit, json, junit + ".run"] {
            texts.append(String(decoding: try Data(contentsOf: URL(fileURLWithPath: path)), as: UTF8.self))
        }
        let recorded = String(decoding: try Data(contentsOf: URL(fileURLWithPath: recording)), as: UTF8.self)
        #expect(recorded.contains("/auth/v1/token"), "the plain-HTTP exchange is recorded")
        for canary in [Self.jwt, "Y2FuYXJ5LXNpZ25hdHVyZS1jYW5hcnk", Self.apikey, Self.refresh, Self.query] {
            for (index, text) in texts.enumerated() { #expect(!text.contains(canary), "output \(index) holds \(canary.prefix(12))…") }
        }
    }
}
