import Testing

@testable import Transport

@Suite("Header list laid out for libcurl")
struct HeaderListTests {
    /// The lines of a list as libcurl walks it.
    static func lines(_ list: HeaderList.Line?) -> [String] {
        var lines: [String] = []
        var node = list
        while let current = node {
            lines.append(current.text)
            node = current.next
        }
        return lines
    }

    @Test("fields then bare lines, in order, each NUL-terminated")
    func order() {
        var list = HeaderList()
        let head = list.make([("Content-Type", "application/json"), ("X-Many", "a, b"), ("X-Empty", "")], ["Expect:", "Accept:"])
        #expect(Self.lines(HeaderList.Line(head)) == ["Content-Type: application/json", "X-Many: a, b", "X-Empty: ", "Expect:", "Accept:"])
        #expect(list.make([], []) == nil)
    }

    @Test("growing past the first node and text capacity, then reused for a shorter list")
    func growthAndReuse() {
        var list = HeaderList()
        let many = (0..<40).map { ("X-Field-\($0)", String(repeating: "v\($0)", count: 30)) }
        let long = list.make(many, ["Expect:"])
        #expect(Self.lines(HeaderList.Line(long)) == many.map { "\($0.0): \($0.1)" } + ["Expect:"])
        let short = list.make([("A", "1"), ("日本", "é")], [])
        #expect(Self.lines(HeaderList.Line(short)) == ["A: 1", "日本: é"])
    }
}
