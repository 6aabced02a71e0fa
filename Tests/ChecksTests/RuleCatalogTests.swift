import Checks
import Corpus
import JSON
import KizunaWire
import Testing

/// Runs a fixture through every rule, as `accord check` does.
enum FixtureRun {
    static func findings(_ rule: RuleDescriptor, fixture: String) throws -> [Finding] {
        if rule.evaluation == .bytes {
            let bytes = Array(fixture.utf8)
            return CanonicalBytesRule.findings(raw: bytes, json: try JSONParser.parse(bytes))
        }
        let steps = try #require(try JSONParser.parse(fixture).arrayValue)
        var checker = Checker<KizunaSync.Trace>(settings: TraceSettings())
        var findings: [Finding] = []
        for (index, element) in steps.enumerated() {
            let step = try Step(json: element, at: JSONPointer(tokens: ["steps", String(index)]))
            let location = StepLocation(number: step.n, label: step.label)
            let payload: KizunaSync.Trace.Event.Payload
            switch step.action {
            case .rpc(let exchange): payload = .exchange(exchange.rpc, request: exchange.request, response: exchange.response)
            case .assert(let checks): payload = .checks(checks)
            default: payload = .other
            }
            findings += checker.observe(KizunaSync.Trace.Event(location: location, client: "c", payload: payload))
        }
        return findings
    }
}

@Suite("rule catalog")
struct RuleCatalogTests {
    @Test("every rule's passing fixture passes every rule", arguments: RuleCatalog.rules)
    func passingFixturePasses(_ rule: RuleDescriptor) throws {
        let findings = try FixtureRun.findings(rule, fixture: rule.passing)
        #expect(findings.isEmpty, "\(rule.id) passing fixture: \(findings)")
    }

    @Test("every rule's violating fixture fails that rule, at its step, and no other", arguments: RuleCatalog.rules)
    func violatingFixtureFailsOnlyItsRule(_ rule: RuleDescriptor) throws {
        let findings = try FixtureRun.findings(rule, fixture: rule.violating)
        #expect(!findings.isEmpty, "\(rule.id) violating fixture is caught")
        for finding in findings {
            #expect(finding.ruleID == rule.id, "only \(rule.id) fails: \(finding)")
            #expect(finding.location?.number == rule.violatingStep, "fails at step \(String(describing: rule.violatingStep)): \(finding)")
        }
    }

    @Test("ids are unique and cover the rules the foundation promises")
    func idsAreUniqueAndComplete() {
        let ids = RuleCatalog.rules.map(\.id.rawValue)
        #expect(Set(ids).count == ids.count)
        let promised = [
            "I-1", "I-2", "I-3", "I-4", "I-5", "I-8", "I-9a", "I-9b", "I-9c", "I-9d", "I-9e", "I-9f", "I-10", "AC-OFFENDER",
            "AC-ABORT-ATOMIC", "AC-VERDICT-KIND", "AC-REASON", "AC-SIGNAL", "AC-OP",
        ]
        for id in promised { #expect(ids.contains(id), "catalog has \(id)") }
    }

    @Test("every rule a trace rule reports is in the catalog")
    func traceRuleIDsAreCatalogued() {
        let ids = Set(RuleCatalog.rules.map(\.id))
        for type in RuleCatalog.traceRules {
            for id in type.ruleIDs { #expect(ids.contains(id), "\(id) of \(type) is catalogued") }
        }
    }

    @Test("the markdown lists every rule with its fixtures")
    func markdownListsEveryRule() {
        let markdown = RuleCatalog.markdown
        for rule in RuleCatalog.rules {
            #expect(markdown.contains("## \(rule.id): \(rule.title)"))
        }
    }
}

extension RuleDescriptor: CustomTestStringConvertible {
    /// The rule id, as test arguments are named.
    public var testDescription: String { id.rawValue }
}
