import Foundation
import Testing

/// Recordings/: sessions recorded through `accord record` between reference clients and
/// `accord serve` replay green in both lanes and pass the offline rules; and a fresh recording
/// made the same way during the test does too.
@Suite("Recordings/ and the record-replay loop", .serialized)
struct RecordingsTests {
    static var folder: String { AccordBinary.packageRoot + "/Recordings" }

    static func recordings(in folder: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".jsonl") }.sorted().map { folder + "/" + $0 }
    }

    static func replayGreen(_ files: [String]) async throws {
        for file in files {
            for arguments in [
                ["check", file], ["run", "--server", "embedded", file], ["run", "--client", "'\(AccordBinary.path)' driver", file],
            ] {
                let result = try await AccordBinary.run(arguments)
                #expect(result.status == 0, "\(arguments): \(result.stdout)\(result.stderr)")
                #expect(result.stdout.contains("(1 passed, 0 failed, 0 skipped)"), "\(arguments): \(result.stdout)")
            }
        }
    }

    @Test("the checked-in recordings pass accord check and replay green in both lanes")
    func checkedInRecordings() async throws {
        let files = try Self.recordings(in: Self.folder)
        #expect(files.count >= 2)
        try await Self.replayGreen(files)
    }

    @Test("reference clients → accord record → accord serve: the new recording has no secret and replays green")
    func recordAndReplay() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = [
            "python3", AccordBinary.packageRoot + "/scripts/record-sessions.py", "--accord", AccordBinary.path, "--out", folder.path,
        ]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            process.terminationHandler = { _ in continuation.resume() }
            do { try process.run() } catch { continuation.resume() }
        }
        #expect(process.terminationStatus == 0)
        let files = try Self.recordings(in: folder.path)
        #expect(files.count == 2)
        for file in files {
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self)
            for canary in ["eyJ", "anon-key", "record-sessions-secret"] { #expect(!text.contains(canary), "\(file) holds \(canary)") }
        }
        try await Self.replayGreen(files)
    }
}
