import Corpus
import Foundation
import JSON
import KizunaWire
import Reports
import Testing

@testable import Lanes

/// What a failing server-lane step tells a team (issue 22, item 2): where the first difference
/// is, for a row its table and primary key, and both values.
@Suite("server lane reports")
struct ServerLaneReportTests {
    @Test("a divergence in a row names the row's table and primary key and both values, in the message and the body")
    func rowDivergenceNamesTheRow() async throws {
        let loaded = try RunnerFixtures.transcript("pull/002-keyset-pagination")
        let step = try #require(
            loaded.transcript.steps.first { step in
                if case .rpc(let exchange) = step.action { return (exchange.response["rows"]?.arrayValue?.count ?? 0) >= 2 }
                return false
            })
        guard case .rpc(let exchange) = step.action, let row = exchange.response["rows"]?.arrayValue?[1] else {
            Issue.record("no pull page with two rows")
            return
        }
        let table = try #require(row["table"]?.stringValue)
        let pk = CanonicalJSON.compact(try #require(row["pk"]))
        let title = CanonicalJSON.compact(try #require(row["row"]?["title"]))
        let number = step.n
        let edit: @Sendable (Int, JSONValue) -> JSONValue = { n, body in
            n == number ? body.replacing(at: JSONPointer(tokens: ["rows", "1", "row", "title"]), with: "edited") : body
        }
        let suite = await ServerLane<KizunaSync>(scenarios: Scenarios()).run(loaded, on: GoldenTarget(loaded, edit: edit), properties: [])
        let result = try #require(suite.cases.first { $0.name == "step \(number) \(step.label)" })
        let failure = try #require(result.failure)
        #expect(failure.ruleID == "AC-GOLDEN")
        #expect(
            failure.message.contains("at /rows/1/row/title in row \(table) pk \(pk) (golden \(title), live \"edited\")"),
            "\(failure.message)")
        #expect(failure.body.contains("expected: \(title)\nactual: \"edited\""), "\(failure.body)")
        #expect(result.time > 0)
    }

    @Test("a value too long for one line is cut, not dropped")
    func longValuesAreCut() async throws {
        let loaded = try RunnerFixtures.transcript("pull/002-keyset-pagination")
        let long = String(repeating: "x", count: 200)
        let edit: @Sendable (Int, JSONValue) -> JSONValue = { _, body in
            body["rows"]?.arrayValue?.isEmpty == false
                ? body.replacing(at: JSONPointer(tokens: ["rows", "0", "row", "title"]), with: .string(long)) : body
        }
        let suite = await ServerLane<KizunaSync>(scenarios: Scenarios()).run(loaded, on: GoldenTarget(loaded, edit: edit), properties: [])
        let failure = try #require(suite.cases.compactMap(\.failure).first)
        #expect(failure.message.contains(", live \"xxxx"), "\(failure.message)")
        #expect(failure.message.contains("…)"), "\(failure.message)")
        #expect(!failure.message.contains(long))
    }
}
