import Corpus
import Foundation
import KizunaWire
import Reports

/// What each case of a run is expected to end as, so a known state of a server is pinned and any
/// change, an unexpected pass included, fails the run. Two files feed it:
///
/// - a known-failing list (`--known-failing FILE`): one case id per line, `#` comments; a listed
///   case must fail (it is then reported skipped), unlisted cases are judged as usual;
/// - an expectations file (`--expect FILE`): `<case id> <outcome> [reason]` per line, outcome one
///   of `pass`, `bound`, `not-applicable`, `skipped` or `known-failing` (a reason is required
///   there); every case of the inputs must be listed.
///
/// In both, `<recording file name>#<exchange number>` names one exchange of a recording, which
/// must fail (`Expectations+Exchanges.swift`; in an expectations file its outcome is `known-failing`).
/// docs/expectations.md describes the format.
public struct Expectations: Sendable, Hashable {
    /// How a case ends.
    public enum Outcome: KebabNamed {
        /// Every compared step at tier pass.
        case pass
        /// Every compared step at tier pass or bound, at least one bound.
        case bound
        /// Nothing failed, and some step did not apply to the target (or the target does not support the case).
        case notApplicable
        /// No answer was compared (a blocked entry, a case of client steps only).
        case skipped
        /// Something failed or errored.
        case knownFailing
    }

    /// One listed case.
    public struct Entry: Sendable, Hashable {
        /// The outcome it must have.
        public var outcome: Outcome
        /// Why, when the file says.
        public var reason: String?
    }

    /// Listed cases by id.
    public var entries: [String: Entry]
    /// True for an expectations file: every case of the inputs must be listed.
    public var isComplete: Bool
    /// The file's name, for messages.
    public var file: String?

    /// Nothing expected: every case is judged as usual.
    public init() {
        entries = [:]
        isComplete = false
        file = nil
    }

    /// The listed case ids.
    public var caseIDs: Set<String> { Set(entries.keys) }

    /// Reads a known-failing list.
    /// - Parameters:
    ///   - text: the file's text.
    ///   - file: the file name, for errors.
    /// - Throws: `CorpusError` naming a line that is not a case id.
    public init(knownFailing text: String, file: String) throws(CorpusError) {
        self.init()
        self.file = file
        for (number, words) in Self.lines(text) {
            guard words.count == 1, let id = words.first else {
                throw CorpusError.grammar(
                    file, line: number, at: .root, "a known-failing line holds one case id, found \"\(words.joined(separator: " "))\"")
            }
            try Self.checkExchange(id, file: file, line: number)
            entries[id] = Entry(outcome: .knownFailing, reason: nil)
        }
    }

    /// Reads an expectations file.
    /// - Parameters:
    ///   - text: the file's text.
    ///   - file: the file name, for errors.
    /// - Throws: `CorpusError` naming the line that breaks the grammar.
    public init(text: String, file: String) throws(CorpusError) {
        self.init()
        self.file = file
        isComplete = true
        for (number, words) in Self.lines(text) {
            let outcomes = Outcome.allCases.map(\.rawValue).joined(separator: "|")
            guard words.count >= 2, let outcome = Outcome(rawValue: words[1]) else {
                throw CorpusError.grammar(file, line: number, at: .root, "expected <case id> <\(outcomes)> [reason]")
            }
            let reason = words.count > 2 ? words.dropFirst(2).joined(separator: " ") : nil
            if outcome == .knownFailing && reason == nil {
                throw CorpusError.grammar(file, line: number, at: .root, "a known-failing case says why: <case id> known-failing <reason>")
            }
            try Self.checkExchange(words[0], file: file, line: number)
            if Self.exchange(of: words[0]) != nil && outcome != .knownFailing {
                throw CorpusError.grammar(
                    file, line: number, at: .root,
                    "a recording's exchange is listed only as known-failing: <recording>#<n> known-failing <reason>")
            }
            if entries[words[0]] != nil {
                throw CorpusError.grammar(file, line: number, at: .root, "\(words[0]) is listed twice")
            }
            entries[words[0]] = Entry(outcome: outcome, reason: reason)
        }
    }

    /// Refuses an id with a `#` that is not `<recording>#<exchange number>`.
    private static func checkExchange(_ id: String, file: String, line: Int) throws(CorpusError) {
        if id.contains("#") && exchange(of: id) == nil {
            throw CorpusError.grammar(
                file, line: line, at: .root, "\(id): a recording's exchange is <recording>#<exchange number>, e.g. a.jsonl#12")
        }
    }

    /// The non-blank lines with their numbers, split into words, comments (from a `#` that
    /// starts a word) dropped.
    private static func lines(_ text: String) -> [(Int, [String])] {
        var lines: [(Int, [String])] = []
        for (index, raw) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            var words: [String] = []
            for word in raw.split(whereSeparator: { $0 == " " || $0 == "\t" || $0 == "\r" }) {
                if word.hasPrefix("#") { break }
                words.append(String(word))
            }
            if !words.isEmpty { lines.append((index + 1, words)) }
        }
        return lines
    }
}
