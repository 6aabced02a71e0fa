import Foundation
import JSON
import Testing

/// Sessions whose lines and answers are what PowerSync's own service emits in its own tests
/// (Conformance/powersync-real: the sync tests' snapshots and the checkpoint route and storage
/// tests of powersync-ja/powersync-service at 332d649554ce0ffa6151f57bce920056f2c0b5ea, each HAR
/// naming its source in `log.comment`). Real systems are the judge: every session passes
/// `accord check` after `accord convert` from HAR, and a copy with one field edited fails at its
/// rule and NDJSON line.
@Suite("PowerSync's own output, as HAR")
struct PowerSyncRealOutputTests {
    static var folder: String { AccordBinary.packageRoot + "/Conformance/powersync-real" }

    static func sessions() throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.hasSuffix(".har") }.sorted()
    }

    /// Converts a HAR to a recording and checks it; the check's status and output.
    static func check(_ har: [UInt8], named name: String, in work: URL) async throws -> (status: Int32, output: String) {
        let input = work.appendingPathComponent(name + ".har")
        let recording = work.appendingPathComponent(name + ".jsonl")
        try Data(har).write(to: input)
        let converted = try await AccordBinary.run(["convert", input.path, recording.path])
        #expect(converted.status == 0, "\(converted.stdout)\(converted.stderr)")
        let checked = try await AccordBinary.run(["check", recording.path])
        return (checked.status, checked.stdout + checked.stderr)
    }

    @Test("every session of PowerSync's own output passes accord check after accord convert from HAR")
    func realOutputPasses() async throws {
        let work = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let sessions = try Self.sessions()
        #expect(sessions.count == 12)
        for session in sessions {
            let har = [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + session)))
            let comment = try JSONParser.parse(har)["log"]?["comment"]?.stringValue ?? ""
            #expect(
                comment.contains("powersync-ja/powersync-service at 332d649554ce0ffa6151f57bce920056f2c0b5ea"),
                "\(session) cites its source")
            let (status, output) = try await Self.check(har, named: String(session.dropLast(4)), in: work)
            #expect(status == 0 && output.contains(" 0 failed"), "\(session): \(output)")
        }
    }

    @Test("what the model does not read of real lines (streams, subscriptions) is noted on the stream's case, which passes")
    func unreadIsNoted() async throws {
        let work = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let input = URL(fileURLWithPath: Self.folder + "/003-priority-override.har")
        let recording = work.appendingPathComponent("s.jsonl")
        let report = work.appendingPathComponent("r.json")
        _ = try await AccordBinary.run(["convert", input.path, recording.path])
        let checked = try await AccordBinary.run(["check", recording.path, "--json", report.path])
        #expect(checked.status == 0, "\(checked.stdout)")
        let json = try JSONParser.parse([UInt8](try Data(contentsOf: report)))
        let stream = try #require(json["suites"]?.arrayValue?.first?["cases"]?.arrayValue?.first)
        #expect(stream["outcome"] == "passed")
        #expect(
            stream["note"]?.stringValue
                == "not read by Accord's model, skipped as PowerSync's core skips them: /checkpoint/buckets/*/subscriptions (NDJSON line 1); /checkpoint/streams (NDJSON line 1)"
        )
    }

    @Test(
        "the real sessions replay against the embedded service with their source side inferred from the streams; only compaction, which it cannot reproduce, diverges"
    )
    func realOutputReplays() async throws {
        let work = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        for session in try Self.sessions() {
            let name = String(session.dropLast(4))
            let recording = work.appendingPathComponent(name + ".jsonl")
            _ = try await AccordBinary.run(["convert", Self.folder + "/" + session, recording.path])
            let replay = try await AccordBinary.run(["run", "--server", "embedded", recording.path])
            if name == "005-compacting-invalidates-checkpoint" {
                // The service compacted ops 1-2 into a CLEAR between the checkpoint and its data;
                // the embedded service has no compaction, so the count the checkpoint announced differs.
                #expect(replay.status == 1, "\(replay.stdout)")
                #expect(
                    replay.stdout.contains(
                        "NDJSON line 1: AC-GOLDEN the live line differs from golden NDJSON line 1 (at /checkpoint/buckets/0/count)"),
                    "\(replay.stdout)")
            } else {
                #expect(replay.status == 0 && replay.stdout.contains(" 0 failed"), "\(session): \(replay.stdout)")
            }
        }
    }

    /// One edited field: which session, how, and where it must fail.
    struct Break: Sendable, CustomStringConvertible {
        var name: String
        var session: String
        var entry: Int
        var edit: @Sendable (inout [JSONValue]) -> Void
        var expected: String
        var description: String { name }
    }

    static let breaks: [Break] = [
        Break(
            name: "a bucket checksum one off", session: "001-global-data", entry: 0,
            edit: { lines in
                lines[0] = edited(lines[0], ["checkpoint", "buckets", 0, "checksum"]) {
                    .number(JSONNumber(($0.numberValue?.intValue ?? 0) + 1))
                }
            },
            expected: "exchange 1 sync-stream NDJSON line 3 (line 2): PS-CHECKSUM"),
        Break(
            name: "a completion naming another last_op_id", session: "001-global-data", entry: 0,
            edit: { lines in lines[lines.count - 1] = ["checkpoint_complete": ["last_op_id": "1"]] },
            expected: "exchange 1 sync-stream NDJSON line 3 (line 2): PS-COMPLETE"),
        Break(
            name: "two ops out of order", session: "001-global-data", entry: 0,
            edit: { lines in
                lines[1] = edited(lines[1], ["data", "data"]) { ops in .array((ops.arrayValue ?? []).reversed()) }
            },
            expected: "exchange 1 sync-stream NDJSON line 2 (line 2): PS-OP-ORDER"),
        Break(
            name: "a write_checkpoint going back", session: "004-empty-checkpoint-completes", entry: 0,
            edit: { lines in lines[0] = edited(lines[0], ["checkpoint", "write_checkpoint"]) { _ in "2" } },
            expected: "exchange 1 sync-stream NDJSON line 4 (line 2): PS-WRITE-CHECKPOINT"),
        Break(
            name: "an expiry that is not a number", session: "011-expired-token", entry: 0,
            edit: { lines in lines[0] = ["token_expires_in": "0"] },
            expected: "exchange 1 sync-stream NDJSON line 1 (line 2): PS-SHAPE"),
        Break(
            name: "a request answered lower than held", session: "012-one-counter-per-client", entry: 1,
            edit: { lines in lines = [["data": ["checkpoint_request_id": "41"]]] },
            expected: "exchange 2 checkpoint-request (line 3): PS-REQUEST-ID"),
    ]

    @Test("a copy of every real session with its last completion's last_op_id edited fails PS-COMPLETE at that NDJSON line")
    func everySessionCatchesAStaleCompletion() async throws {
        let work = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        var edited = 0
        for session in try Self.sessions() {
            let original = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + session))))
            let path: [PathToken] = ["log", "entries", 0, "response", "content", "text"]
            var line = 0
            let har = Self.edited(original, path) { text in
                var lines = (text.stringValue ?? "").split(separator: "\n").compactMap { try? JSONParser.parse(Array($0.utf8)) }
                guard let last = lines.lastIndex(where: { $0["checkpoint_complete"] != nil }) else { return text }
                lines[last] = ["checkpoint_complete": ["last_op_id": "999"]]
                line = last + 1
                return .string(lines.map { CanonicalJSON.compact($0) }.joined(separator: "\n") + "\n")
            }
            guard line > 0 else { continue }  // a stream with no completion (an expired token's) or the counter session
            edited += 1
            let (status, output) = try await Self.check(Array(CanonicalJSON.compact(har).utf8), named: "stale", in: work)
            #expect(status == 1, "\(session): \(output)")
            #expect(output.contains("exchange 1 sync-stream NDJSON line \(line) (line 2): PS-COMPLETE"), "\(session): \(output)")
        }
        #expect(edited == 10)
    }

    @Test("a copy of a real session with one field edited fails at its rule and NDJSON line", arguments: breaks)
    func oneEditFails(_ broken: Break) async throws {
        let work = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: work) }
        let original = try JSONParser.parse(
            [UInt8](try Data(contentsOf: URL(fileURLWithPath: Self.folder + "/" + broken.session + ".har"))))
        let path: [PathToken] = ["log", "entries", .index(broken.entry), "response", "content", "text"]
        let har = Self.edited(original, path) { text in
            var lines = (text.stringValue ?? "").split(separator: "\n").compactMap { try? JSONParser.parse(Array($0.utf8)) }
            broken.edit(&lines)
            return .string(lines.map { CanonicalJSON.compact($0) }.joined(separator: "\n") + (lines.count > 1 ? "\n" : ""))
        }
        #expect(har != original)
        let (status, output) = try await Self.check(Array(CanonicalJSON.compact(har).utf8), named: "broken", in: work)
        #expect(status == 1, "\(output)")
        #expect(output.contains("FAIL broken.jsonl › " + broken.expected), "\(output)")
    }

    /// A step of a path into a JSON value: a member or an array index.
    enum PathToken: ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, Sendable {
        case member(String)
        case index(Int)
        init(stringLiteral value: String) { self = .member(value) }
        init(integerLiteral value: Int) { self = .index(value) }
    }

    /// `value` with the value at `path` replaced by `change` of it.
    static func edited(_ value: JSONValue, _ path: [PathToken], _ change: (JSONValue) -> JSONValue) -> JSONValue {
        guard let first = path.first else { return change(value) }
        let rest = Array(path.dropFirst())
        switch (first, value) {
        case (.member(let key), .object(var object)):
            object[key] = edited(object[key] ?? .null, rest, change)
            return .object(object)
        case (.index(let index), .array(var array)) where array.indices.contains(index):
            array[index] = edited(array[index], rest, change)
            return .array(array)
        default: return value
        }
    }
}
