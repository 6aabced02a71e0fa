import JSON

/// A failure body split for the page: its finding lines, and the expected and actual values
/// side by side, each pretty-printed as canonical JSON when it parses, with the lines the other
/// side lacks marked.
struct ExpectedActualDiff {
    /// The body's lines other than the expected and actual values.
    var notes: [String]
    /// The expected value's text, when the body has one.
    var expected: String?
    /// The actual value's text, when the body has one.
    var actual: String?

    /// The labels a body's expected and actual lines start with.
    private static let pairs = [("expected: ", "actual: "), ("golden: ", "live: ")]
    /// The most lines per side compared line by line; longer values are shown unmarked.
    private static let compareLimit = 400

    /// Splits a failure body.
    /// - Parameter body: the body, e.g. "expected: {…}\nactual: {…}".
    init(body: String) {
        var notes: [String] = []
        var expected: String?
        var actual: String?
        for line in body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
            if expected == nil, let value = Self.value(line, side: 0) {
                expected = value
            } else if actual == nil, let value = Self.value(line, side: 1) {
                actual = value
            } else if !line.isEmpty {
                notes.append(line)
            }
        }
        self.notes = notes
        self.expected = expected
        self.actual = actual
    }

    private static func value(_ line: String, side: Int) -> String? {
        for pair in pairs {
            let label = side == 0 ? pair.0 : pair.1
            if line.hasPrefix(label) { return String(line.dropFirst(label.count)) }
        }
        return nil
    }

    /// Pretty-prints JSON text, or gives it back unchanged when it is not JSON.
    /// - Returns: its lines.
    static func pretty(_ text: String) -> [String] {
        guard let value = try? JSONParser.parse(text) else { return [text] }
        let rendered = String(decoding: CanonicalJSON.render(value), as: UTF8.self)
        return rendered.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init)
    }

    /// The markup: the notes, then a two-column table of expected and actual.
    /// - Returns: the HTML.
    func render() -> String {
        var out = ""
        if !notes.isEmpty { out += "<pre class=\"findings\">" + HTMLText.escape(notes.joined(separator: "\n")) + "</pre>\n" }
        guard expected != nil || actual != nil else { return out }
        let left = expected.map(Self.pretty) ?? []
        let right = actual.map(Self.pretty) ?? []
        let (keptLeft, keptRight) = Self.common(left, right)
        out += "<table class=\"diff\"><thead><tr><th>expected</th><th>actual</th></tr></thead><tbody><tr>"
        out += "<td>" + Self.column(left, kept: keptLeft, mark: "missing", empty: "(nothing expected here)") + "</td>"
        out += "<td>" + Self.column(right, kept: keptRight, mark: "unexpected", empty: "(nothing)") + "</td>"
        return out + "</tr></tbody></table>\n"
    }

    /// One side: the lines the other side lacks marked, `missing` on the expected side (what the
    /// target should have sent), `unexpected` on the actual side (what it sent instead, never
    /// styled as good); a side with no value says so.
    private static func column(_ lines: [String], kept: Set<Int>, mark: String, empty: String) -> String {
        if lines.isEmpty { return "<pre class=\"muted\">" + HTMLText.escape(empty) + "</pre>" }
        var out = "<pre>"
        for (index, line) in lines.enumerated() {
            let text = HTMLText.escape(line)
            // A marked line is a block holding its own line end, so it takes one line, not two.
            out += kept.contains(index) ? text + "\n" : "<span class=\"\(mark)\">\(text)\n</span>"
        }
        return out + "</pre>"
    }

    /// The indices of each side's lines in a longest common subsequence of the two; when either
    /// side is too long to compare, every line counts as common.
    static func common(_ left: [String], _ right: [String]) -> (Set<Int>, Set<Int>) {
        guard left.count <= compareLimit, right.count <= compareLimit else { return (Set(left.indices), Set(right.indices)) }
        var lengths = Array(repeating: Array(repeating: 0, count: right.count + 1), count: left.count + 1)
        for i in stride(from: left.count - 1, through: 0, by: -1) {
            for j in stride(from: right.count - 1, through: 0, by: -1) {
                lengths[i][j] = left[i] == right[j] ? lengths[i + 1][j + 1] + 1 : max(lengths[i + 1][j], lengths[i][j + 1])
            }
        }
        var (i, j) = (0, 0)
        var keptLeft = Set<Int>()
        var keptRight = Set<Int>()
        while i < left.count && j < right.count {
            if left[i] == right[j] {
                keptLeft.insert(i)
                keptRight.insert(j)
                (i, j) = (i + 1, j + 1)
            } else if lengths[i + 1][j] >= lengths[i][j + 1] {
                i += 1
            } else {
                j += 1
            }
        }
        return (keptLeft, keptRight)
    }
}
