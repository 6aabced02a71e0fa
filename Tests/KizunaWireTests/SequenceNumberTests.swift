import Testing

@testable import KizunaWire

@Suite("SequenceNumber")
struct SequenceNumberTests {
    @Test(
        "accepts only canonical decimal text",
        arguments: ["0", "1", "9", "10", "42", "1000000", "18446744073709551616", String(repeating: "9", count: 200)])
    func acceptsCanonical(_ text: String) throws {
        let seq = try #require(SequenceNumber(text))
        #expect(seq.text == text)
        #expect(seq.description == text)
        #expect(SequenceNumber.isCanonical(Array(text.utf8)))
    }

    @Test(
        "refuses anything else", arguments: ["", " ", "00", "01", "007", "-1", "+1", "1 ", " 1", "1.0", "1e3", "0x1", "١", "１", "1_0", "a"])
    func refusesNonCanonical(_ text: String) {
        #expect(SequenceNumber(text) == nil)
        #expect(!SequenceNumber.isCanonical(Array(text.utf8)))
    }

    @Test("parses substrings")
    func parsesSubstrings() {
        let text = "12:34"
        #expect(SequenceNumber(text.prefix(2))?.text == "12")
        #expect(SequenceNumber(text.suffix(2))?.text == "34")
    }

    @Test("is made from integers")
    func fromIntegers() {
        #expect(SequenceNumber(UInt64(0)) == .zero)
        #expect(SequenceNumber(UInt64(42)).text == "42")
        #expect(SequenceNumber(UInt64.max).text == "18446744073709551615")
        #expect(SequenceNumber.zero.text == "0")
    }

    @Test("orders numerically, not by text")
    func ordersNumerically() throws {
        func seq(_ text: String) throws -> SequenceNumber { try #require(SequenceNumber(text)) }
        #expect(try seq("9") < seq("10"))
        #expect(try !(seq("10") < seq("9")))
        #expect(try seq("0") < seq("1"))
        #expect(try seq("99") < seq("100"))
        #expect(try seq("123") < seq("124"))
        #expect(try !(seq("124") < seq("124")))
        #expect(try seq("124") <= seq("124"))
        #expect(try seq("9007199254740992") < seq("9007199254740993"))
        #expect(try seq("18446744073709551615") < seq("18446744073709551616"))
        #expect(try seq("99999999999999999999999999999999999999") < seq("100000000000000000000000000000000000000"))
        let long = String(repeating: "9", count: 500)
        let longer = "1" + String(repeating: "0", count: 500)
        #expect(try seq(long) < seq(longer))
        #expect(try seq("1" + String(repeating: "0", count: 499) + "1") < seq("1" + String(repeating: "0", count: 498) + "10"))
        let shuffled = try ["100", "9", "0", "1000000000000000000000", "99", "10", "999999999999999999999"].map(seq)
        #expect(shuffled.sorted().map(\.text) == ["0", "9", "10", "99", "100", "999999999999999999999", "1000000000000000000000"])
        #expect(try seq("77") == seq("77"))
        #expect(try Set([seq("5"), seq("5"), seq("6")]).count == 2)
    }

    @Test("agrees with integer order on small values")
    func agreesWithIntegers() throws {
        let values: [UInt64] = [0, 1, 2, 9, 10, 11, 19, 20, 99, 100, 101, 999, 1000, 4_294_967_296, UInt64.max - 1, UInt64.max]
        for left in values {
            for right in values {
                #expect((SequenceNumber(left) < SequenceNumber(right)) == (left < right), "\(left) < \(right)")
            }
        }
    }

    @Test("computes the successor on the digits")
    func successor() {
        let cases: [(String, String)] = [
            ("0", "1"), ("1", "2"), ("8", "9"), ("9", "10"), ("19", "20"), ("99", "100"), ("109", "110"), ("199", "200"),
            ("18446744073709551615", "18446744073709551616"),
            (String(repeating: "9", count: 40), "1" + String(repeating: "0", count: 40)),
        ]
        for (from, to) in cases {
            let next = SequenceNumber(from)!.successor
            #expect(next.text == to, "\(from) + 1")
            #expect(SequenceNumber.isCanonical(Array(next.text.utf8)))
            #expect(SequenceNumber(from)! < next)
        }
    }
}

@Suite("SequenceNumber.predecessor")
struct SequenceNumberPredecessorTests {
    @Test(
        "is the successor's inverse, across carries and past 2^64", arguments: ["1", "9", "10", "100", "1000", "18446744073709551616", "5"])
    func inverse(_ text: String) throws {
        let seq = try #require(SequenceNumber(text))
        #expect(seq.successor.predecessor == seq)
        #expect(seq.predecessor?.successor == seq)
    }

    @Test("10 - 1 is 9, 1 - 1 is 0, and zero has none")
    func edges() {
        #expect(SequenceNumber(10).predecessor == SequenceNumber(9))
        #expect(SequenceNumber(1).predecessor == .zero)
        #expect(SequenceNumber.zero.predecessor == nil)
    }
}
