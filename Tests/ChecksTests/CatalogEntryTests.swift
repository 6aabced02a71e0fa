import Checks
import Foundation
import Testing

@Suite("The catalog names every id a report can carry")
struct CatalogEntryTests {
    /// The package root, from this file's path.
    static var packageRoot: URL {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    }

    /// Every string literal in Sources that is a rule id (`"I-5"`, `"AC-GOLDEN"`, `"CL-DRIVER"`, `"KM-LOST-EDIT"`), with its file.
    static func literalIDs() throws -> [(id: String, file: String)] {
        let sources = packageRoot.appendingPathComponent("Sources")
        let pattern = try NSRegularExpression(pattern: "\"((?:AC|CL|KM)-[A-Z0-9-]*[A-Z0-9]|I-[0-9]+[a-f]?)\"")
        var found: [(String, String)] = []
        let walker = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)
        while let url = walker?.nextObject() as? URL {
            guard url.pathExtension == "swift" else { continue }
            let text = try String(contentsOf: url, encoding: .utf8)
            let range = NSRange(text.startIndex..., in: text)
            for match in pattern.matches(in: text, range: range) {
                if let idRange = Range(match.range(at: 1), in: text) { found.append((String(text[idRange]), url.lastPathComponent)) }
            }
        }
        return found
    }

    @Test("every rule id written as a literal anywhere in Sources is in the catalog")
    func everyEmittedIDIsCatalogued() throws {
        let literals = try Self.literalIDs()
        // The scan must see the ids the runner emits outside the rule folds, or it proves nothing.
        for id in ["AC-GOLDEN", "AC-BINDING", "AC-DIFF", "AC-KNOWN-FAILING", "CL-DRIVER", "KM-LOST-EDIT"] {
            #expect(literals.contains { $0.id == id }, "the scan did not find \(id)")
        }
        for (id, file) in literals {
            #expect(RuleCatalog.entry(id) != nil, "\(id) (in \(file)) is not in the catalog")
        }
    }

    @Test("ids are unique across rules, runner checks and obligations")
    func idsAreUnique() {
        let ids = RuleCatalog.entries.map(\.id)
        #expect(Set(ids).count == ids.count)
    }

    @Test("an entry prints its statement, source and fixtures, and lookup ignores case")
    func entryText() throws {
        let rule = try #require(RuleCatalog.entry("i-5"))
        #expect(rule.id == "I-5")
        let descriptor = try #require(RuleCatalog.rule("I-5"))
        #expect(rule.text.contains(descriptor.statement))
        #expect(rule.text.contains("Source: \(descriptor.source)."))
        #expect(rule.text.contains(descriptor.violating.trimmingCharacters(in: .newlines)))
        let golden = try #require(RuleCatalog.entry("AC-GOLDEN"))
        #expect(golden.text.hasPrefix("AC-GOLDEN: "))
        #expect(golden.text.contains("Fixture, passing: accord run --server embedded"))
        #expect(RuleCatalog.entry("AC-NOPE") == nil)
    }

    @Test("docs/rules.md's Markdown lists the runner checks and the obligations")
    func markdownListsEverything() {
        for entry in RuleCatalog.entries {
            #expect(RuleCatalog.markdown.contains("| \(entry.id) |"), "\(entry.id) is not in the Markdown tables")
        }
    }
}
