import Checks
import Foundation
import Testing

@Suite("accord rules: every id, and one id in full")
struct RulesCommandTests {
    @Test("accord rules lists the runner checks and obligations next to the rules")
    func listsEverything() async throws {
        let result = try await AccordBinary.run(["rules"])
        #expect(result.status == 0)
        let ids = result.stdout.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) }
        #expect(ids == RuleCatalog.entries.map(\.id))
        for id in ["I-5", "AC-GOLDEN", "AC-DIFF", "AC-KNOWN-FAILING", "AC-BINDING", "CL-DRIVER", "KM-LOST-EDIT"] {
            #expect(ids.contains(id), "\(id) missing from: \(result.stdout)")
        }
    }

    @Test("accord rules I-5 prints the rule's statement, source and both fixtures")
    func oneRule() async throws {
        let result = try await AccordBinary.run(["rules", "I-5"])
        #expect(result.status == 0, "\(result.stderr)")
        let rule = try #require(RuleCatalog.rule("I-5"))
        #expect(result.stdout.hasPrefix("I-5: \(rule.title)\n"), "\(result.stdout)")
        #expect(result.stdout.contains(rule.statement))
        #expect(result.stdout.contains("Source: \(rule.source)."))
        #expect(result.stdout.contains("Fixture, passing:\n\(rule.passing.trimmingCharacters(in: .newlines))"))
        #expect(result.stdout.contains("Fixture, violating (fails at step 1):"))
    }

    @Test("an id that is not in the catalog is a usage error on one line")
    func unknownRule() async throws {
        let result = try await AccordBinary.run(["rules", "AC-NOPE"])
        #expect(result.status == 64)
        #expect(result.stdout.isEmpty)
        #expect(result.stderr.hasPrefix("accord: error: no rule 'AC-NOPE' in the catalog"), "\(result.stderr)")
    }
}
