import Foundation

/// How a `JSONRewriter` treats the value of one object member.
public enum JSONMemberTreatment: Sendable, Hashable {
    /// Rewritten like the rest of the document: strings offered to the rules.
    case rewrite
    /// Copied as it is (compacted), nothing offered to the rules.
    case copy
    /// Replaced whole by the string `JSONRewriteRules.secret(_:)` gives, unless it is null.
    case secret
}

/// What a `JSONRewriter` asks while it re-encodes a document. Rules are classes: the rewriter
/// holds them by reference, which costs less per call than an existential box.
public protocol JSONRewriteRules: AnyObject {
    /// How the value of a member is treated; it must depend on the key alone, since a rewrite
    /// asks once per distinct key.
    /// - Parameter key: the member's key, decoded, as UTF-8 bytes.
    /// - Returns: the treatment.
    func treatment(ofMember key: UnsafeBufferPointer<UInt8>) -> JSONMemberTreatment

    /// The replacement of a string value, or nil to keep it.
    /// - Parameter string: the decoded string's UTF-8 bytes.
    /// - Returns: the replacement's UTF-8 bytes, or nil.
    func rewrite(string: UnsafeBufferPointer<UInt8>) -> [UInt8]?

    /// The string that replaces the value of a `.secret` member.
    /// - Parameter material: the value when it is a string, else its compact JSON with sorted keys.
    /// - Returns: the replacement.
    func secret(_ material: String) -> String
}

/// Re-encodes a JSON document compactly in one pass, applying `JSONRewriteRules`, without
/// building a tree. The bytes are exactly those of parsing the document with `JSONParser`,
/// applying the same rules to the tree, and `CanonicalJSON.writeCompact(_:into:sortingKeys:)`
/// with keys in their order; the same documents are refused.
public enum JSONRewriter {
    /// Re-encodes the document that fills `buffer` (surrounding whitespace allowed).
    /// - Parameters:
    ///   - buffer: the UTF-8 document.
    ///   - out: the buffer to append the compact document to; left as it was on failure.
    ///   - rules: what to change.
    ///   - key: a top-level member whose string value to hand back, decoded and unchanged.
    /// - Returns: whether `buffer` is one JSON document, and the string under `key` if any.
    public static func rewrite(
        _ buffer: UnsafeBufferPointer<UInt8>, into out: inout [UInt8], rules: some JSONRewriteRules, capturing key: String? = nil
    ) -> (valid: Bool, captured: String?) {
        let start = out.count
        var scanner = JSONScanner(buffer: buffer)
        var pass = RewritePass(rules: rules, captureKey: key)
        do throws(JSONParseError) {
            scanner.skipWhitespace()
            try scanner.rewriteValue(depth: 0, copying: false, into: &out, pass: &pass)
            scanner.skipWhitespace()
            if scanner.index < scanner.end { throw scanner.failure("content after the document") }
            scanner.flushRun(&pass, into: &out)
            return (true, pass.captured)
        } catch {
            out.removeSubrange(start...)
            return (false, nil)
        }
    }
}

/// The rules of one rewrite, what it captured, and the treatments of the keys it has met.
/// Not generic: the rewriter runs unspecialized across modules, where a generic pass would
/// look its type metadata up at every call.
struct RewritePass {
    let rules: any JSONRewriteRules
    let captureKey: String?
    var captured: String?
    var sawCaptureKey = false
    /// Input bytes that go to the output unchanged and are not copied yet: most of a compact
    /// document is copied in a few long runs instead of token by token.
    var runStart = 0
    var runEnd = 0
    /// Keys already treated, end to end (rows repeat their keys: each is asked about once).
    private var knownKeys: [UInt8] = []
    /// Each key's bytes in `knownKeys`, its treatment, and whether it reads the same quoted
    /// (no quote, backslash or control character), so that input can be matched against it.
    private var known: [(start: Int, count: Int, treatment: JSONMemberTreatment, quotable: Bool)] = []
    private static var maximumKnown: Int { 32 }
    private static var maximumKnownLength: Int { 64 }

    init(rules: any JSONRewriteRules, captureKey: String?) {
        self.rules = rules
        self.captureKey = captureKey
    }

    /// The entry after the one found last: rows repeat their keys in the same order, so it is
    /// usually the next one asked about.
    private var predicted = 0
    /// The entry found after the last one last time: a row's first key, after the previous
    /// row's last.
    private var wrapsTo = 0

    /// The predicted key, when the input at `open` is exactly that key in quotes: then it is
    /// a plain string, needs no scan, and its treatment is known.
    /// - Returns: the key's length in bytes and its treatment, or nil.
    mutating func predictedKey(in buffer: UnsafeBufferPointer<UInt8>, at open: Int) -> (count: Int, treatment: JSONMemberTreatment)? {
        let index = predicted < known.count ? predicted : wrapsTo
        guard index < known.count else { return nil }
        let entry = known[index]
        let close = open + 1 + entry.count
        guard entry.quotable, close < buffer.count, buffer[close] == UInt8(ascii: "\"") else { return nil }
        let same = knownKeys.withUnsafeBufferPointer { stored in
            var offset = 0
            while offset < entry.count {
                if stored[entry.start + offset] != buffer[open + 1 + offset] { return false }
                offset += 1
            }
            return true
        }
        guard same else { return nil }
        found(index)
        return (entry.count, entry.treatment)
    }

    private mutating func found(_ index: Int) {
        if predicted >= known.count { wrapsTo = index }
        predicted = index + 1
    }

    /// The treatment of a member, asked of the rules once per distinct short key.
    mutating func treatment(ofMember key: UnsafeBufferPointer<UInt8>) -> JSONMemberTreatment {
        // Keys are short: a byte loop beats a call to memcmp.
        let found: (Int, JSONMemberTreatment)? = knownKeys.withUnsafeBufferPointer { stored in
            func matches(_ entry: (start: Int, count: Int, treatment: JSONMemberTreatment, quotable: Bool)) -> Bool {
                guard entry.count == key.count else { return false }
                for offset in 0..<key.count where stored[entry.start + offset] != key[offset] { return false }
                return true
            }
            if predicted < known.count, matches(known[predicted]) { return (predicted, known[predicted].treatment) }
            for (index, entry) in known.enumerated() where matches(entry) { return (index, entry.treatment) }
            return nil
        }
        if let (index, treatment) = found {
            self.found(index)
            return treatment
        }
        let treatment = rules.treatment(ofMember: key)
        if known.count < Self.maximumKnown && key.count <= Self.maximumKnownLength {
            if known.isEmpty {
                // One allocation each for a document's keys, instead of growing row by row.
                known.reserveCapacity(Self.maximumKnown)
                knownKeys.reserveCapacity(Self.maximumKnown * 8)
            }
            let quotable = !key.contains { $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") || $0 < 0x20 }
            known.append((knownKeys.count, key.count, treatment, quotable))
            knownKeys.append(contentsOf: key)
            self.found(known.count - 1)
        }
        return treatment
    }

    /// Whether `key` is the first top-level member named like the capture key (as
    /// `JSONObject`'s subscript reads it); notes that it was seen.
    mutating func claimsCapture(_ key: UnsafeBufferPointer<UInt8>) -> Bool {
        guard !sawCaptureKey, var wanted = captureKey else { return false }
        let equal = wanted.withUTF8 { $0.elementsEqual(key) }
        if equal { sawCaptureKey = true }
        return equal
    }
}
