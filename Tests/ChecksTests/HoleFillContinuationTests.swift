import Checks
import Corpus
import JSON
import KizunaWire
import Testing

/// A paged pull from a composite cursor whose page stops inside the hole fills: upstream's SQL
/// pack encodes the continuation as `<start>:<seq of the page's last entry>`
/// (kizunasync/kizunasync, packages/supabase-pack/supabase/migrations/0001_kizuna_init.sql at
/// 05bc51f1b113cffb8b654f6bf3fc59d7ad2dad79, `_encode_continuation` and pull's step 6), below
/// the request's high-water. I-9d asks for exactly that cursor; I-3 used to refuse it, so no
/// answer passed both (`accord explore` found the contradiction, issue 39).
@Suite("A continuation that stops inside hole fills")
struct HoleFillContinuationTests {
    static func pull(_ cursor: String, limit: Int, answer: String, hasMore: Bool, seqs: [Int]) -> JSONValue {
        [
            "kind": "rpc", "n": 1, "rpc": "pull",
            "request": [
                "buckets": [["params": ["owner_id": "u"], "table": "todos"]], "cursor": .string(cursor),
                "limit": .number(JSONNumber(limit)),
                "schema_version": 1,
            ],
            "response": [
                "cursor": .string(answer), "has_more": .bool(hasMore), "signal": nil, "tombstones": [],
                "rows": .array(
                    seqs.map { ["pk": .string("p\($0)"), "row": ["owner_id": "u"], "seq": .string(String($0)), "table": "todos"] }),
            ],
        ]
    }

    static func findings(_ steps: [JSONValue]) throws -> [Finding] {
        var checker = Checker<KizunaSync.Trace>(settings: TraceSettings(fencing: "visibility-horizon"))
        var findings: [Finding] = []
        for (index, json) in steps.enumerated() {
            let numbered = json.replacing(at: JSONPointer(tokens: ["n"]), with: .number(JSONNumber(index + 1)))
            let step = try Step(json: numbered, at: JSONPointer(tokens: ["steps", String(index)]))
            guard case .rpc(let exchange) = step.action else { continue }
            findings += checker.observe(
                KizunaSync.Trace.Event(
                    location: StepLocation(number: step.n, label: step.label), client: "c",
                    payload: .exchange(exchange.rpc, request: exchange.request, response: exchange.response)))
        }
        return findings
    }

    @Test("the pack's cursor (start, last hole fill) passes every rule, and so does the transfer it continues")
    func packCursorPasses() throws {
        let findings = try Self.findings([
            Self.pull("2~1", limit: 1, answer: "2:1", hasMore: true, seqs: [1]),
            Self.pull("2:1", limit: 5, answer: "3", hasMore: false, seqs: [2, 3]),
        ])
        #expect(findings.isEmpty, "\(findings)")
    }

    @Test("a continuation at the request's high-water instead of the last fill fails I-9d, and nothing else")
    func requestHighWaterFailsI9d() throws {
        let findings = try Self.findings([Self.pull("2~1", limit: 1, answer: "2:2", hasMore: true, seqs: [1])])
        #expect(findings.map(\.ruleID) == ["I-9d"])
    }

    @Test("a high-water below the request's is still I-3 when the page fills no hole")
    func noHoleStillI3() throws {
        let findings = try Self.findings([Self.pull("2", limit: 1, answer: "2:1", hasMore: true, seqs: [1])])
        #expect(findings.map(\.ruleID).contains("I-3"))
    }

    @Test("after the fills, a closing cursor below the transfer's high-water is I-3")
    func closingBelowTransferFails() throws {
        let findings = try Self.findings([
            Self.pull("2~1", limit: 1, answer: "2:1", hasMore: true, seqs: [1]),
            Self.pull("2:1", limit: 5, answer: "1", hasMore: false, seqs: []),
        ])
        #expect(findings.map(\.ruleID).contains("I-3"))
    }
}
