import JSON
import Testing

@testable import KizunaWire

@Suite("JSONPointer")
struct JSONPointerTests {
    /// The RFC 6901 section 5 example document.
    static let document: JSONValue = [
        "foo": ["bar", "baz"], "": 0, "a/b": 1, "c%d": 2, "e^f": 3, "g|h": 4, "i\\j": 5, "k\"l": 6, " ": 7, "m~n": 8,
    ]

    @Test("resolves the RFC 6901 examples")
    func rfcExamples() throws {
        let cases: [(String, JSONValue)] = [
            ("/foo", ["bar", "baz"]), ("/foo/0", "bar"), ("/", 0), ("/a~1b", 1), ("/c%d", 2), ("/e^f", 3), ("/g|h", 4),
            ("/i\\j", 5), ("/k\"l", 6), ("/ ", 7), ("/m~0n", 8),
        ]
        for (text, expected) in cases {
            let pointer = try #require(JSONPointer(text), "\(text)")
            #expect(Self.document.value(at: pointer) == expected, "\(text)")
            #expect(pointer.description == text, "\(text) prints back")
        }
        #expect(Self.document.value(at: try #require(JSONPointer(""))) == Self.document)
    }

    @Test("unescapes ~1 before ~0")
    func unescapeOrder() throws {
        #expect(try #require(JSONPointer("/~01")).tokens == ["~1"])
        #expect(try #require(JSONPointer("/~10")).tokens == ["/0"])
        #expect(try #require(JSONPointer("/~0~1")).tokens == ["~/"])
        #expect(JSONPointer(tokens: ["~1"]).description == "/~01")
        #expect(JSONPointer(tokens: ["a/b~c"]).description == "/a~1b~0c")
    }

    @Test("a pointer in prose names an escaped key as written, so ~1 never stands alone")
    func readable() {
        let pointer = JSONPointer(tokens: ["cases", "fencing/001-late-commit-delivered", "next_seq"])
        #expect(pointer.description == "/cases/fencing~1001-late-commit-delivered/next_seq")
        #expect(pointer.readable == "/cases/fencing~1001-late-commit-delivered/next_seq (the key \"fencing/001-late-commit-delivered\")")
        #expect(JSONPointer(tokens: ["steps", "3", "request"]).readable == "/steps/3/request")
        #expect(JSONPointer.root.readable == "/")
        #expect(JSONPointer(tokens: ["a~b", "c/d"]).readable == "/a~0b/c~1d (the keys \"a~b\", \"c/d\")")
    }

    @Test("round-trips awkward tokens through text")
    func roundTrips() throws {
        let tokens = ["", "a", "~", "/", "~0", "~1", "//", "é", "0", "with space"]
        for token in tokens {
            let pointer = JSONPointer(tokens: [token, token])
            let parsed = try #require(JSONPointer(pointer.description))
            #expect(parsed == pointer, "\(token.debugDescription)")
        }
    }

    @Test("the root is empty and text without a leading slash is refused")
    func root() {
        #expect(JSONPointer.root.description == "")
        #expect(JSONPointer.root.tokens.isEmpty)
        #expect(JSONPointer("") == .root)
        #expect(JSONPointer("foo") == nil)
        #expect(JSONPointer("#/foo") == nil)
        #expect(JSONPointer("/")?.tokens == [""])
        #expect(JSONPointer("//")?.tokens == ["", ""])
        #expect(JSONPointer("/a/")?.tokens == ["a", ""])
    }

    @Test("appends keys, indices and pointers")
    func appending() {
        let base = JSONPointer.root.appending("steps").appending(3)
        #expect(base.description == "/steps/3")
        #expect(base.appending(JSONPointer(tokens: ["response", "a/b"])).description == "/steps/3/response/a~1b")
        #expect(base.appending(.root) == base)
        #expect(JSONPointer.root.appending(base) == base)
    }

    @Test("misses give nil")
    func misses() throws {
        let cases = ["/nope", "/foo/2", "/foo/-1", "/foo/x", "/foo/0/deeper", "/ /x", "/foo/-", "/foo/"]
        for text in cases {
            #expect(Self.document.value(at: try #require(JSONPointer(text))) == nil, "\(text)")
        }
    }

    @Test("array indices follow RFC 6901: no sign, no leading zero")
    func strictArrayIndices() throws {
        let list: JSONValue = ["a", "b", "c", "d", "e", "f", "g", "h", "i", "j", "k"]
        #expect(list.value(at: try #require(JSONPointer("/0"))) == "a")
        #expect(list.value(at: try #require(JSONPointer("/10"))) == "k")
        for text in ["/01", "/00", "/+1", "/ 1", "/1 ", "/1.0", "/0x1", "/1e0", "/010"] {
            #expect(list.value(at: try #require(JSONPointer(text))) == nil, "\(text) names no element")
        }
        // object keys that look like indices are plain keys
        let object: JSONValue = ["01": "zero-one", "1": "one"]
        #expect(object.value(at: try #require(JSONPointer("/01"))) == "zero-one")
        #expect(object.value(at: try #require(JSONPointer("/1"))) == "one")
    }

    @Test("replacing(at:with:) edits a copy at a pointer")
    func replacing() throws {
        let document: JSONValue = ["a": ["b": [1, 2, 3]], "c": "d"]
        func pointer(_ text: String) throws -> JSONPointer { try #require(JSONPointer(text)) }
        #expect(document.replacing(at: try pointer("/c"), with: "e")["c"] == "e")
        #expect(document.replacing(at: try pointer("/a/b/1"), with: "two")["a"]?["b"] == [1, "two", 3])
        #expect(document.replacing(at: try pointer("/a/b/3"), with: 4)["a"]?["b"] == [1, 2, 3, 4], "one past the end appends")
        #expect(document.replacing(at: try pointer("/a/b/0"), with: nil)["a"]?["b"] == [2, 3], "nil removes an element")
        #expect(document.replacing(at: try pointer("/c"), with: nil).objectValue?.keys == ["a"], "nil drops a member")
        #expect(document.replacing(at: try pointer("/new"), with: true).objectValue?.keys == ["a", "c", "new"])
        #expect(document.replacing(at: try pointer("/missing/deeper"), with: 1)["missing"] == ["deeper": 1], "missing members are created")
        #expect(document.replacing(at: try pointer("/a/b/-"), with: 4)["a"]?["b"] == [1, 2, 3, 4], "'-' appends")
        #expect(document.replacing(at: try pointer("/a/b/9"), with: 1) == document)
        #expect(document.replacing(at: try pointer("/c/x"), with: 1) == document, "a scalar has no children")
        #expect(document.replacing(at: .root, with: 5) == 5)
        #expect(document.replacing(at: try pointer("/c"), with: "e")["a"] == document["a"], "other members untouched")
    }

    @Test("orders by text")
    func ordering() throws {
        let pointers = ["/b", "/a/1", "/a", ""].compactMap(JSONPointer.init)
        #expect(pointers.sorted().map(\.description) == ["", "/a", "/a/1", "/b"])
    }

    @Test("a WireError relocates under a prefix and describes itself")
    func wireErrorPointer() {
        let error = WireError(.unknownSignal, at: JSONPointer(tokens: ["signal", "type"]), "unknown signal")
        #expect(error.description == "UNKNOWN_SIGNAL at /signal/type: unknown signal")
        let moved = error.relocated(under: JSONPointer(tokens: ["steps", "4", "response"]))
        #expect(moved.pointer.description == "/steps/4/response/signal/type")
        #expect(moved.kind == .unknownSignal)
        #expect(moved.detail == error.detail)
        #expect(WireError(.json, at: .root, "x").description == "JSON at /: x")
    }
}
