import Checks
import Corpus
import JSON
import PowerSyncWire
import Testing

/// Runs a PowerSync fixture through every PS rule, as `accord check` does.
enum PowerSyncFixtureRun {
    static func findings(_ fixture: String) throws -> [Finding] {
        let elements = try #require(try JSONParser.parse(fixture).arrayValue)
        let steps = try elements.enumerated().map { index, element in
            try PowerSync.Step(json: element, at: JSONPointer(tokens: ["steps", String(index)]))
        }
        var checker = Checker<PowerSync.Trace>()
        return PowerSync.Trace.Event.events(of: steps).flatMap { checker.observe($0) }
    }
}

@Suite("PowerSync rule catalog")
struct PowerSyncCatalogTests {
    @Test("every PS rule's passing fixture passes every PS rule", arguments: RuleCatalog.powerSyncRules)
    func passingFixturePasses(_ rule: RuleDescriptor) throws {
        let findings = try PowerSyncFixtureRun.findings(rule.passing)
        #expect(findings.isEmpty, "\(rule.id) passing fixture: \(findings)")
    }

    @Test(
        "every PS rule's violating fixture fails that rule, at its step and NDJSON line, and no other",
        arguments: RuleCatalog.powerSyncRules)
    func violatingFixtureFailsOnlyItsRule(_ rule: RuleDescriptor) throws {
        let findings = try PowerSyncFixtureRun.findings(rule.violating)
        #expect(!findings.isEmpty, "\(rule.id) violating fixture is caught")
        for finding in findings {
            #expect(finding.ruleID == rule.id, "only \(rule.id) fails: \(finding)")
            #expect(finding.location?.number == rule.violatingStep, "at step \(String(describing: rule.violatingStep)): \(finding)")
            #expect(finding.location?.streamLine == rule.violatingLine, "at line \(String(describing: rule.violatingLine)): \(finding)")
            #expect(!finding.pointer.tokens.isEmpty, "names a pointer: \(finding)")
        }
    }

    @Test("the PS ids are their own, every PS fold's ids are catalogued, and accord rules lists them")
    func idsAreCatalogued() {
        let ids = RuleCatalog.powerSyncRules.map(\.id)
        #expect(Set(ids).count == ids.count)
        #expect(ids.allSatisfy { $0.rawValue.hasPrefix("PS-") })
        #expect(Set(ids).isDisjoint(with: Set(RuleCatalog.rules.map(\.id))))
        for type in RuleCatalog.powerSyncTraceRules {
            for id in type.ruleIDs { #expect(ids.contains(id), "\(id) of \(type) is catalogued") }
        }
        let entries = Set(RuleCatalog.entries.map(\.id))
        for id in ids { #expect(entries.contains(id.rawValue)) }
        for rule in RuleCatalog.powerSyncRules { #expect(RuleCatalog.markdown.contains("### \(rule.id): \(rule.title)")) }
    }

    @Test("a finding on a stream line names the step and its NDJSON line")
    func findingNamesTheLine() throws {
        let rule = try #require(RuleCatalog.powerSyncRules.first { $0.id == "PS-COMPLETE" })
        let finding = try #require(try PowerSyncFixtureRun.findings(rule.violating).first)
        #expect(finding.description.hasPrefix("step 1 sync-stream NDJSON line 3: PS-COMPLETE"))
        #expect(finding.pointer.description == "/checkpoint_complete/last_op_id")
    }
}
