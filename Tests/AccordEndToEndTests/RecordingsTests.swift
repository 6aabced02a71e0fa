import AccordTestSupport
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
        #expect(files.count >= 3)
        try await Self.replayGreen(files)
    }

    /// A recording whose `deleted_at` values came from `accord serve`'s wall clock replays against
    /// the embedded server (whose clock the replay drives) at tier bound, with no flag; byte
    /// equality would fail it.
    static func replaysBound(_ file: String) async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let json = folder.appendingPathComponent("replay.json").path
        let bound = try await AccordBinary.run(["run", "--server", "embedded", file, "--json", json])
        #expect(bound.status == 0, "\(bound.stdout)\(bound.stderr)")
        let report = String(decoding: try Data(contentsOf: URL(fileURLWithPath: json)), as: UTF8.self)
        #expect(report.contains(#""tier":"bound""#), "\(report)")
        let strict = try await AccordBinary.run(["run", "--server", "embedded", file, "--tier", "pass"])
        #expect(strict.status == 1, "\(strict.stdout)")
        #expect(
            strict.stdout.contains("only once server-made values are bound (tier bound), first at /tombstones/0/deleted_at"),
            "\(strict.stdout)")
    }

    @Test("a recording of a wall-clock accord serve replays against the embedded server at tier bound with no flag")
    func wallClockRecordingIsBound() async throws {
        try await Self.replaysBound(Self.folder + "/wall-clock-deletes.jsonl")
    }

    @Test("reference clients → accord record → accord serve: the new recording has no secret and replays green")
    func recordAndReplay() async throws {
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let process = ChildProcess()
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
        #expect(files.count == 3)
        for file in files {
            let text = String(decoding: try Data(contentsOf: URL(fileURLWithPath: file)), as: UTF8.self)
            for canary in ["eyJ", "anon-key", "record-sessions-secret"] { #expect(!text.contains(canary), "\(file) holds \(canary)") }
        }
        try await Self.replayGreen(files)
        try await Self.replaysBound(folder.appendingPathComponent("wall-clock-deletes.jsonl").path)
    }
}
