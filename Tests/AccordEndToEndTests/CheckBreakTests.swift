import Foundation
import JSON
import Testing

/// A real transcript broken the way one rule forbids.
struct Break: CustomStringConvertible, Sendable {
    var name: String
    var file: String
    var rule: String
    var step: Int
    var edits: [(String, JSONValue?)]

    var description: String { "\(name) → \(rule) at step \(step)" }
}

/// For every rule: take a real corpus transcript, break it, and show that `accord check` fails
/// that case with that rule at that step, and that nothing else fails.
@Suite("accord check catches each broken rule")
struct CheckBreakTests {
    static let breaks: [Break] = [
        Break(
            name: "drop a verdict", file: "push/002-rls-denied-not-a-wedge", rule: "I-5", step: 7,
            edits: [("/steps/6/response/verdicts/1", nil)]),
        Break(name: "reorder verdicts", file: "push/002-rls-denied-not-a-wedge", rule: "I-5", step: 7, edits: []),
        Break(name: "duplicate a mutation id", file: "push/002-rls-denied-not-a-wedge", rule: "I-5", step: 7, edits: []),
        Break(
            name: "name an offender outside the batch", file: "push/005-atomic-batch-revert", rule: "AC-OFFENDER", step: 7,
            edits: [("/steps/6/response/batch/offender_mutation_id", "00000000-0000-4000-8000-f10000000099")]),
        Break(
            name: "abort a non-atomic batch", file: "push/005-atomic-batch-revert", rule: "AC-ABORT-ATOMIC", step: 7,
            edits: [("/steps/6/request/batch/atomic", false)]),
        Break(name: "unknown rejection reason", file: "push/002-rls-denied-not-a-wedge", rule: "AC-REASON", step: 7, edits: []),
        Break(
            name: "unknown verdict kind", file: "push/001-insert-applied", rule: "AC-VERDICT-KIND", step: 3,
            edits: [("/steps/2/response/verdicts/0/verdict", "deferred")]),
        Break(
            name: "unknown op", file: "push/001-insert-applied", rule: "AC-OP", step: 3,
            edits: [("/steps/2/request/batch/mutations/0/op", "upsert")]),
        Break(
            name: "unknown signal", file: "lifecycle/002-reset-required", rule: "AC-SIGNAL", step: 1,
            edits: [("/steps/0/response/signal/type", "SLOW_DOWN")]),
        Break(
            name: "push signal other than RESET_REQUIRED", file: "lifecycle/003-push-stale-schema", rule: "AC-SIGNAL", step: 3,
            edits: [("/steps/2/response/signal/type", "CHECKPOINT_EXPIRED")]),
        Break(name: "rows on a signal page", file: "lifecycle/001-checkpoint-expired-rehydrate", rule: "I-8", step: 1, edits: []),
        Break(
            name: "signal page that does not echo the cursor", file: "lifecycle/002-reset-required", rule: "I-9e", step: 1,
            edits: [("/steps/0/response/cursor", "1")]),
        Break(
            name: "a regressing cursor", file: "fencing/002-overlap-redelivery-idempotent", rule: "I-3", step: 4,
            edits: [("/steps/3/response/cursor", "0")]),
        Break(name: "entries out of order", file: "pull/006-integer-key-pull-only", rule: "I-10", step: 4, edits: []),
        Break(
            name: "a page over its limit", file: "pull/004-exact-fit-closes-checkpoint", rule: "I-9a", step: 3,
            edits: [("/steps/2/request/limit", 1)]),
        Break(
            name: "a continuation page that closes", file: "pull/002-keyset-pagination", rule: "I-9b", step: 4,
            edits: [("/steps/3/response/has_more", false)]),
        Break(
            name: "an under-full page that stays open", file: "pull/002-keyset-pagination", rule: "I-9c", step: 4,
            edits: [("/steps/3/request/limit", 3)]),
        Break(
            name: "a continuation cursor past its last entry", file: "pull/002-keyset-pagination", rule: "I-9d", step: 4,
            edits: [("/steps/3/response/cursor", "0:3")]),
        Break(
            name: "an open page without a start", file: "pull/002-keyset-pagination", rule: "I-9f", step: 4,
            edits: [("/steps/3/response/cursor", "2")]),
        Break(
            name: "a seq above the high-water", file: "pull/006-integer-key-pull-only", rule: "I-4", step: 4,
            edits: [("/steps/3/response/rows/2/seq", "4")]),
        Break(
            name: "a malformed cursor", file: "pull/001-bootstrap-empty", rule: "I-2", step: 1,
            edits: [("/steps/0/response/cursor", "00")]),
        Break(name: "non-canonical bytes", file: "push/001-insert-applied", rule: "I-1", step: 3, edits: []),
        Break(
            name: "a cursor below the request's", file: "pull/001-bootstrap-empty", rule: "I-3", step: 1,
            edits: [("/steps/0/request/cursor", "5")]),
        Break(
            name: "CHECKPOINT_EXPIRED on a bootstrap", file: "lifecycle/001-checkpoint-expired-rehydrate", rule: "AC-EXPIRY", step: 1,
            edits: [("/steps/0/request/cursor", "0"), ("/steps/0/response/cursor", "0")]),
        Break(
            name: "a mutation id that is not a uuid", file: "push/001-insert-applied", rule: "I-2", step: 3,
            edits: [("/steps/2/request/batch/mutations/0/mutation_id", "m1")]),
        Break(
            name: "an origin clock that is not one", file: "conflict/003-hlc-origin-order", rule: "I-2", step: 6,
            edits: [("/steps/5/request/batch/mutations/0/hlc", "garbage")]),
        Break(name: "65 buckets", file: "pull/001-bootstrap-empty", rule: "I-2", step: 1, edits: []),
        Break(
            name: "a row and a tombstone with one key", file: "pull/006-integer-key-pull-only", rule: "I-10", step: 8,
            edits: [("/steps/7/response/tombstones/0/seq", "4"), ("/steps/7/response/tombstones/0/pk", "7")]),
        Break(name: "duplicate ids in an aborted atomic batch", file: "push/005-atomic-batch-revert", rule: "I-5", step: 7, edits: []),
    ]

    @Test("a broken transcript fails its rule at its step and nothing else", arguments: breaks)
    func brokenTranscriptFails(_ broken: Break) async throws {
        let path = AccordBinary.sharedCorpus + "/transcripts/\(broken.file).json"
        var json = try JSONParser.parse([UInt8](try Data(contentsOf: URL(fileURLWithPath: path))))
        json = try Self.specialEdit(broken.name, json)
        for (pointer, value) in broken.edits {
            let target = try ptr(pointer)
            #expect(json.value(at: target) != nil || value == nil, "edit target \(pointer) exists")
            json = json.replacing(at: target, with: value)
        }
        var bytes = CanonicalJSON.render(json)
        if broken.name == "non-canonical bytes" {
            let needle = Array("\"n\": 3,".utf8)
            let at = try #require(bytes.firstRange(of: needle))
            bytes.replaceSubrange(at, with: Array("\"n\":  3,".utf8))
        }
        let folder = try AccordBinary.temporaryFolder()
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("broken.json")
        try Data(bytes).write(to: file)
        let report = folder.appendingPathComponent("report.json")
        let result = try await AccordBinary.run(["check", file.path, "--json", report.path])
        #expect(result.status == 1, "exit 1 on a rule failure; stderr: \(result.stderr)")
        let failures = try Self.failures(in: report)
        #expect(!failures.isEmpty, "the break is caught")
        for failure in failures {
            #expect(failure.rule == broken.rule, "only \(broken.rule) fails: \(failure.message)")
            #expect(
                failure.caseName == "step \(broken.step) \(failure.caseName.split(separator: " ").last ?? "")",
                "fails at step \(broken.step): \(failure.caseName)")
            #expect(failure.message.hasPrefix("step \(broken.step) "), "message names the step: \(failure.message)")
        }
    }

    @Test("the unbroken corpus passes with exit 0")
    func unbrokenCorpusPasses() async throws {
        let result = try await AccordBinary.run(["check", AccordBinary.sharedCorpus])
        #expect(result.status == 0, "\(result.stdout)\(result.stderr)")
        #expect(result.stdout.contains("0 failed"))
    }

    static func specialEdit(_ name: String, _ json: JSONValue) throws -> JSONValue {
        switch name {
        case "reorder verdicts":
            let verdicts = try #require(json.value(at: try ptr("/steps/6/response/verdicts"))?.arrayValue)
            return json.replacing(at: try ptr("/steps/6/response/verdicts"), with: .array(verdicts.reversed()))
        case "duplicate a mutation id":
            let first = try #require(json.value(at: try ptr("/steps/6/request/batch/mutations/0/mutation_id")))
            return json.replacing(at: try ptr("/steps/6/request/batch/mutations/1/mutation_id"), with: first)
                .replacing(at: try ptr("/steps/6/response/verdicts/1/mutation_id"), with: first)
        case "unknown rejection reason":
            let verdicts = try #require(json.value(at: try ptr("/steps/6/response/verdicts"))?.arrayValue)
            let index = try #require(verdicts.firstIndex { $0["reason"] != nil })
            return json.replacing(at: try ptr("/steps/6/response/verdicts/\(index)/reason"), with: "RATE_LIMITED")
        case "rows on a signal page":
            let row: JSONValue = [
                "pk": "00000000-0000-4000-8000-e10000000002", "row": ["done": false, "title": "leak"], "seq": "2", "table": "todos",
            ]
            return json.replacing(at: try ptr("/steps/0/response/rows/0"), with: row)
        case "65 buckets":
            let bucket = try #require(json.value(at: try ptr("/steps/0/request/buckets/0")))
            return json.replacing(at: try ptr("/steps/0/request/buckets"), with: .array(Array(repeating: bucket, count: 65)))
        case "duplicate ids in an aborted atomic batch":
            let first = try #require(json.value(at: try ptr("/steps/6/request/batch/mutations/0/mutation_id")))
            return json.replacing(at: try ptr("/steps/6/request/batch/mutations/1/mutation_id"), with: first)
                .replacing(at: try ptr("/steps/6/response/batch/offender_mutation_id"), with: first)
        case "entries out of order":
            let rows = try #require(json.value(at: try ptr("/steps/3/response/rows"))?.arrayValue)
            return json.replacing(at: try ptr("/steps/3/response/rows"), with: .array([rows[1], rows[0]] + rows.dropFirst(2)))
        default:
            return json
        }
    }

    struct ReportedFailure {
        var caseName: String
        var rule: String
        var message: String
    }

    static func failures(in report: URL) throws -> [ReportedFailure] {
        let json = try JSONParser.parse([UInt8](try Data(contentsOf: report)))
        var found: [ReportedFailure] = []
        for suite in json["suites"]?.arrayValue ?? [] {
            for testcase in suite["cases"]?.arrayValue ?? [] {
                for failure in testcase["failures"]?.arrayValue ?? [] {
                    found.append(
                        ReportedFailure(
                            caseName: testcase["name"]?.stringValue ?? "", rule: failure["rule"]?.stringValue ?? "",
                            message: failure["message"]?.stringValue ?? ""))
                }
            }
        }
        return found
    }
}

struct BadPointer: Error {}

/// Parses a pointer literal used by the tests.
func ptr(_ text: String) throws -> JSONPointer {
    guard let pointer = JSONPointer(text) else { throw BadPointer() }
    return pointer
}
