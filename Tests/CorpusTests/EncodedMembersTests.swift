import Corpus
import Foundation
import JSON
import Testing

@Suite("Recorded exchange: members encoded without a tree")
struct EncodedMembersTests {
    static let odd = [
        "", "a", "Content-Type", "x-\"quoted\"", "back\\slash", "ctl\u{1}\u{1F}\u{7F}", "tab\there", "new\nline", "é", "日本語", "😀",
        "e\u{301}", "<redacted:jwt:1>", "\u{0}", "/rest/v1/rpc/pull?a=b&c=%20",
    ]

    static func scalar(_ rng: inout SplitMix64) -> JSONValue {
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: return .null
        case 1: return .bool(Bool.random(using: &rng))
        case 2:
            return .number(JSONNumber(literal: ["0", "-1", "1.50", "2e-7", "12345678901234567890123"].randomElement(using: &rng) ?? "0"))
        default: return .string(odd.randomElement(using: &rng) ?? "")
        }
    }

    static func body(_ rng: inout SplitMix64, depth: Int = 0) -> JSONValue {
        switch Int.random(in: 0..<(depth > 2 ? 1 : 4), using: &rng) {
        case 0: return scalar(&rng)
        case 1: return .array((0..<Int.random(in: 0..<4, using: &rng)).map { _ in body(&rng, depth: depth + 1) })
        default:
            let count = Int.random(in: 0..<5, using: &rng)
            return .object(
                JSONObject(
                    (0..<count).map { _ in JSONObject.Member(key: odd.randomElement(using: &rng) ?? "", value: body(&rng, depth: depth + 1))
                    }))
        }
    }

    /// Header objects as the recorder builds them: a repeated name becomes an array of values.
    static func headers(_ rng: inout SplitMix64) -> JSONObject {
        var object = JSONObject()
        for _ in 0..<Int.random(in: 0..<6, using: &rng) {
            let name = odd.randomElement(using: &rng) ?? ""
            let value = JSONValue.string(odd.randomElement(using: &rng) ?? "")
            switch object[name] {
            case .array(let values)?: object[name] = .array(values + [value])
            case let existing?: object[name] = [existing, value]
            case nil: object[name] = value
            }
        }
        if Bool.random(using: &rng) { object.members.append(JSONObject.Member(key: ":accord-truncated", value: true)) }
        return object
    }

    static func milliseconds(_ rng: inout SplitMix64) -> Double {
        switch Int.random(in: 0..<5, using: &rng) {
        case 0: return 0
        case 1: return Double(Int.random(in: 0..<10_000_000, using: &rng)) / 1000
        case 2: return Double.random(in: 0..<100, using: &rng)
        case 3: return [0.0004, 0.0005, 0.9995, 1.0005, 999.9999, 12.3, 1e9 + 0.25].randomElement(using: &rng) ?? 0
        default: return Double(Int.random(in: 0..<100_000, using: &rng))
        }
    }

    static func exchange(_ rng: inout SplitMix64) -> RecordedExchange {
        let rpc = ["pull", "push", "http"].randomElement(using: &rng) ?? "http"
        var exchange = RecordedExchange(
            number: Int.random(in: 0..<1000, using: &rng), rpc: rpc, request: body(&rng), response: body(&rng),
            status: [0, 200, 204, 401, 599, 1000].randomElement(using: &rng) ?? 200)
        exchange.atMilliseconds = milliseconds(&rng)
        exchange.durationMilliseconds = milliseconds(&rng)
        exchange.user = Bool.random(using: &rng) ? odd.randomElement(using: &rng) : nil
        exchange.client = Bool.random(using: &rng) ? odd.randomElement(using: &rng) : nil
        exchange.method = ["GET", "POST", "M\"X", "é"].randomElement(using: &rng) ?? "GET"
        exchange.path = odd.randomElement(using: &rng) ?? "/"
        exchange.requestHeaders = headers(&rng)
        exchange.responseHeaders = headers(&rng)
        return exchange
    }

    static func compact(_ value: JSONValue) -> [UInt8] {
        var out: [UInt8] = []
        CanonicalJSON.writeCompact(value, into: &out, sortingKeys: false)
        return out
    }

    /// The contract: `json` without its `exchange` member, written compactly in member order.
    static func reference(_ exchange: RecordedExchange) throws -> [UInt8] {
        var object = try #require(exchange.json.objectValue)
        object.members.removeAll { $0.key == "exchange" }
        return compact(.object(object))
    }

    @Test("random exchanges: the bytes of json without exchange, with bodies given or pre-encoded")
    func randomExchanges() throws {
        var rng = SplitMix64(state: 0xE5C4A_46E)
        for _ in 0..<3_000 {
            let exchange = Self.exchange(&rng)
            let expected = try Self.reference(exchange)
            #expect(exchange.encodedMembers() == expected)
            let request = Bool.random(using: &rng) ? Self.compact(exchange.request) : nil
            let response = Bool.random(using: &rng) ? Self.compact(exchange.response) : nil
            let encoded = exchange.encodedMembers(request: request, response: response)
            #expect(encoded == expected, "\(String(decoding: encoded, as: UTF8.self))\nwant \(String(decoding: expected, as: UTF8.self))")
            let parsed = try JSONParser.parse(encoded)
            #expect(parsed.objectValue?.keys == ["at_ms", "duration_ms", "http", "identity", "request", "response", "rpc"])
        }
    }

    @Test("pre-encoded bodies are inserted as given, and the line reads back as the exchange")
    func preEncoded() throws {
        var exchange = RecordedExchange(number: 7, rpc: "push", request: .null, response: .null)
        exchange.atMilliseconds = 1.5
        exchange.durationMilliseconds = 0.0004
        let encoded = exchange.encodedMembers(request: Array(#"{"b":1,"a":[2]}"#.utf8), response: Array(#""x""#.utf8))
        let text = String(decoding: encoded, as: UTF8.self)
        #expect(
            text == #"{"at_ms":1.500,"duration_ms":0,"http":{"method":"POST","path":"/rest/v1/rpc/push","request_headers":{},"#
                + #""response_headers":{},"status":200},"identity":{"client":null,"user":null},"request":{"b":1,"a":[2]},"#
                + #""response":"x","rpc":"push"}"#)
        let line = Array(#"{"exchange":7,"#.utf8) + encoded.dropFirst()
        let read = try RecordedExchange(json: try JSONParser.parse(line), line: 2)
        #expect(read.request == ["b": 1, "a": [2]])
        #expect(read.response == "x")
        #expect(read.number == 7 && read.atMilliseconds == 1.5 && read.durationMilliseconds == 0)
    }

    /// The milliseconds text an exchange line carries for `at_ms`.
    static func atText(_ milliseconds: Double) -> String {
        var exchange = RecordedExchange(number: 1, rpc: "push", request: .null, response: .null)
        exchange.atMilliseconds = milliseconds
        let text = String(decoding: exchange.encodedMembers(), as: UTF8.self)
        let value = text.dropFirst(#"{"at_ms":"#.count)
        return String(value.prefix { $0 != "," })
    }

    @Test(
        "milliseconds are written as whole thousandths, with three decimals unless whole",
        arguments: [
            (0.0, "0"), (1.5, "1.500"), (-2.25, "-2.250"), (12, "12"), (0.0004, "0"), (-0.0004, "0"), (3.14159, "3.142"),
            (0.05, "0.050"), (1_000_000, "1000000"), (-0.001, "-0.001"), (9e15, "9000000000000000"),
        ])
    func millisecondsText(milliseconds: Double, text: String) {
        #expect(Self.atText(milliseconds) == text)
    }

    @Test(
        "milliseconds no recording can hold are written at the nearest bound, NaN as 0, instead of stopping",
        arguments: [
            (Double.infinity, "9000000000000000"), (-Double.infinity, "-9000000000000000"), (1e300, "9000000000000000"),
            (Double.nan, "0"),
        ])
    func unrecordableMillisecondsText(milliseconds: Double, text: String) {
        #expect(!RecordedExchange.isRecordable(milliseconds: milliseconds))
        #expect(Self.atText(milliseconds) == text)
    }

    @Test("milliseconds print as the string formatting they replaced did, over many magnitudes")
    func millisecondsAgainstStringFormatting() {
        // The formatting before it wrote bytes directly, for values a recording holds.
        func reference(_ milliseconds: Double) -> String {
            let thousandths = Int((milliseconds * 1000).rounded())
            let sign = thousandths < 0 ? "-" : ""
            let whole = thousandths.magnitude / 1000
            let fraction = thousandths.magnitude % 1000
            if fraction == 0 { return thousandths == 0 ? "0" : sign + String(whole) }
            let digits = String(fraction)
            return "\(sign)\(whole)." + String(repeating: "0", count: 3 - digits.count) + digits
        }
        var rng = SplitMix64(state: 20_261_201)
        for _ in 0..<5_000 {
            let magnitude = Double.random(in: -4...15, using: &rng)
            let value = (Bool.random(using: &rng) ? -1 : 1) * Double.random(in: 1..<10, using: &rng) * pow(10, magnitude.rounded(.down))
            guard RecordedExchange.isRecordable(milliseconds: value) else { continue }
            #expect(Self.atText(value) == reference(value), "\(value)")
        }
    }
}
