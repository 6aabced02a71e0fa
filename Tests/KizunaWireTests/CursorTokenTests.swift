import JSON
import Testing

@testable import KizunaWire

private func token(_ text: String) throws -> CursorToken { try CursorToken(parsing: text) }
private func seq(_ text: String) -> SequenceNumber {
    guard let value = SequenceNumber(text) else { preconditionFailure("not a sequence number: \(text)") }
    return value
}

@Suite("CursorToken")
struct CursorTokenTests {
    static let vectors: JSONValue = (try? Corpus.value("spec/cursor-token-vectors.json")) ?? .null
    static let acceptVectors: [String] = vectors["accept"]?.arrayValue?.compactMap(\.stringValue) ?? []
    static let rejectVectors: [String] = vectors["reject"]?.arrayValue?.compactMap(\.stringValue) ?? []

    @Test("the shared vectors are loaded")
    func vectorsLoaded() {
        #expect(Self.acceptVectors.count >= 15)
        #expect(Self.rejectVectors.count >= 36)
    }

    @Test("every accept vector parses and prints back identically", arguments: acceptVectors)
    func acceptVector(_ text: String) throws {
        let parsed = try token(text)
        #expect(parsed.description == text)
        #expect(try token(parsed.description) == parsed)
        // rebuilt from its parts it is the same token
        let rebuilt = try CursorToken(start: parsed.start, highWater: parsed.highWater, holes: parsed.holes)
        #expect(rebuilt == parsed)
    }

    @Test("every reject vector throws .malformedCursor", arguments: rejectVectors)
    func rejectVector(_ text: String) throws {
        let error = try #require(wireError { try token(text) }, "\(text.debugDescription) should be refused")
        #expect(error.kind == .malformedCursor)
        #expect(error.protocolCode == "JSON")
        #expect(error.pointer == .root)
        #expect(error.detail.contains("\"\(text)\""))
    }

    @Test(
        "refuses more non-canonical text",
        arguments: [
            "0~1", "1~1", "5~2.2", "5~3.2", "1:2~", "١", "٣~١", "6~ 5", "6~5 ", "6~5.", "6.5", "6~+5", "a", "0:", "00:1", "6~5~4",
            "1:2:3~1",
        ])
    func rejectMore(_ text: String) {
        #expect(wireError { try token(text) }?.kind == .malformedCursor)
    }

    @Test("exposes its parts")
    func parts() throws {
        let checkpoint = try token("10~3.5.8")
        #expect(checkpoint.start == nil)
        #expect(checkpoint.highWater == seq("10"))
        #expect(checkpoint.holes == [seq("3"), seq("5"), seq("8")])
        #expect(!checkpoint.isContinuation)
        #expect(!checkpoint.isBootstrap)
        #expect(checkpoint.hasHole(seq("5")))
        #expect(!checkpoint.hasHole(seq("4")))
        #expect(!checkpoint.hasHole(seq("10")))

        let continuation = try token("7:1000~1.2.3.4.5")
        #expect(continuation.start == seq("7"))
        #expect(continuation.highWater == seq("1000"))
        #expect(continuation.isContinuation)
        #expect(continuation.holes.count == 5)
    }

    @Test("bootstrap is \"0\" and only \"0\"")
    func bootstrap() throws {
        #expect(CursorToken.bootstrap.description == "0")
        #expect(try token("0") == .bootstrap)
        #expect(try token("0").isBootstrap)
        #expect(try !token("0:0").isBootstrap)
        #expect(try token("0:0").isContinuation)
        #expect(try !token("1").isBootstrap)
    }

    @Test("transferStart is the start when present, else the high-water")
    func transferStart() throws {
        #expect(try token("42").transferStart == seq("42"))
        #expect(try token("9~5.7").transferStart == seq("9"))
        #expect(try token("4:6").transferStart == seq("4"))
        #expect(try token("0:9~5.7").transferStart == seq("0"))
        #expect(try token("12:3").transferStart == seq("12"))
        #expect(CursorToken.bootstrap.transferStart == .zero)
    }

    @Test("compares high-water marks numerically")
    func highWaterComparison() throws {
        #expect(try token("9").highWaterPrecedes(token("10")))
        #expect(try !token("10").highWaterPrecedes(token("9")))
        #expect(try !token("10").highWaterPrecedes(token("10")))
        #expect(try !token("10").highWaterPrecedes(token("10~3")), "holes do not change the high-water")
        #expect(try token("0").highWaterPrecedes(token("0:1")))
        #expect(try token("6~5").highWaterPrecedes(token("4:7")), "the start is not the high-water")
        #expect(try token("12:3").highWaterPrecedes(token("4")), "a continuation's high-water (3) is what counts")
        #expect(try token("99999999999999999999").highWaterPrecedes(token("100000000000000000000")))
        let huge = "1" + String(repeating: "0", count: 300)
        let hugeMinusOne = String(repeating: "9", count: 300)
        #expect(try token(hugeMinusOne).highWaterPrecedes(token(huge)))
        #expect(try !token(huge).highWaterPrecedes(token(hugeMinusOne)))
    }

    @Test("very long decimals parse, print and order without overflow")
    func longDecimals() throws {
        let high = "98765432109876543210987654321098765432109876543210"
        let hole = "98765432109876543210987654321098765432109876543209"
        let start = "12345678901234567890123456789012345678901234567890"
        let text = "\(start):\(high)~1.\(hole)"
        let parsed = try token(text)
        #expect(parsed.description == text)
        #expect(parsed.start == seq(start))
        #expect(parsed.holes == [seq("1"), seq(hole)])
        #expect(parsed.hasHole(seq(hole)))
        #expect(parsed.transferStart == seq(start))
        // a hole at the high-water or out of order is refused even when the numbers are long
        #expect(wireError { try token("\(high)~\(high)") }?.kind == .malformedCursor)
        #expect(wireError { try token("\(high)~\(hole).1") }?.kind == .malformedCursor)
        #expect(wireError { try token("\(hole)~\(high)") }?.kind == .malformedCursor)
        // the holes are compared numerically: 9 < 10 even though "9" > "10" as text
        #expect(try token("11~9.10").holes == [seq("9"), seq("10")])
        #expect(wireError { try token("11~10.9") }?.kind == .malformedCursor)
    }

    @Test("the memberwise initializer enforces the hole rules")
    func memberwise() throws {
        let made = try CursorToken(start: seq("3"), highWater: seq("9"), holes: [seq("5"), seq("7")])
        #expect(made.description == "3:9~5.7")
        #expect(try CursorToken(highWater: seq("6")).description == "6")
        let badCases: [[SequenceNumber]] = [[.zero], [seq("9")], [seq("10")], [seq("7"), seq("5")], [seq("5"), seq("5")]]
        for holes in badCases {
            let error = wireError { try CursorToken(highWater: seq("9"), holes: holes) }
            #expect(error?.kind == .malformedCursor, "holes \(holes)")
        }
    }

    @Test("equal tokens hash alike")
    func hashing() throws {
        #expect(try Set([token("6~5"), token("6~5"), token("0:6~5"), token("6")]).count == 3)
        #expect(try token("6~5") != token("0:6~5"))
    }
}
