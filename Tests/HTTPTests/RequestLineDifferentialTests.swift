import HTTP
import Testing

/// The byte-level request line and target split, checked against the String-based forms they
/// replaced (kept here as the reference) over generated lines and targets.
@Suite("Request line and target split: byte-level parsing agrees with the String-based reference")
struct RequestLineDifferentialTests {
    /// The former request-line reading: split at spaces, check the parts, classify the target.
    static func referenceLine(_ line: String) -> String {
        let bytes = Array(line.utf8)
        let parts = bytes.split(separator: 0x20, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else { return "400" }
        let isToken: (UInt8) -> Bool = { byte in
            switch byte {
            case 0x30...0x39, 0x41...0x5A, 0x61...0x7A: true
            default: Array("!#$%&'*+-.^_`|~".utf8).contains(byte)
            }
        }
        guard parts[0].allSatisfy(isToken), parts[1].allSatisfy({ $0 >= 0x21 && $0 <= 0x7E }) else { return "400" }
        let method = String(decoding: parts[0], as: UTF8.self)
        let target = String(decoding: parts[1], as: UTF8.self)
        let lowered = target.lowercased()
        let forms = target.hasPrefix("/") || lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
        guard forms || (target == "*" && method == "OPTIONS") else { return "400" }
        switch String(decoding: parts[2], as: UTF8.self) {
        case "HTTP/1.1", "HTTP/1.0": return "\(method) \(target)"
        case let text where text.utf8.count == 8 && text.hasPrefix("HTTP/") && Array(text.utf8)[6] == 0x2E: return "505?"
        default: return "400"
        }
    }

    /// What the parser makes of the same line, in the reference's terms.
    static func parsedLine(_ line: String) -> String {
        switch HTTPRequestParser().parse(Array((line + "\r\nHost: h\r\n\r\n").utf8)[...]) {
        case .complete(let request, _): return "\(request.method) \(request.target)"
        case .failed(let error): return error.status == 505 ? "505?" : String(error.status)
        case .incomplete: return "incomplete"
        }
    }

    /// The former split, by characters.
    static func referenceSplit(_ target: String) -> (String, String?) {
        var rest = Substring(target)
        for scheme in ["http://", "https://"] where rest.lowercased().hasPrefix(scheme) {
            rest = rest.dropFirst(scheme.count)
            guard let slash = rest.firstIndex(where: { $0 == "/" || $0 == "?" }) else { return ("/", nil) }
            rest = rest[slash...]
            if rest.first == "?" { rest = "/" + rest }
        }
        guard let question = rest.firstIndex(of: "?") else { return (String(rest), nil) }
        return (String(rest[..<question]), String(rest[rest.index(after: question)...]))
    }

    static let pieces = [
        "/", "/a", "?", "??", "x=1", "&", "#", "HTTP://", "http://", "HtTpS://h", "h:1", "*", " ", "  ", "\t", "%20", "é", "?\u{301}",
        "\u{600}?", "GET", "OPTIONS", "HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/1.1 ", "http/1.1", "HTTP/1.12", "\u{7F}",
    ]

    /// Deterministic pseudo-random picks, so a failure repeats.
    static func generated(_ count: Int, seed: UInt64, _ make: (inout SeededGenerator) -> String) -> [String] {
        var random = SeededGenerator(state: seed)
        return (0..<count).map { _ in make(&random) }
    }

    @Test("5,000 generated request lines parse to the same method and target, or the same refusal")
    func requestLines() {
        let lines = Self.generated(5_000, seed: 11) { random in
            let method = ["GET", "POST", "OPTIONS", "G:T", ""][Int.random(in: 0..<5, using: &random)]
            let target = (0..<Int.random(in: 0..<5, using: &random)).map { _ in Self.pieces.randomElement(using: &random) ?? "" }.joined()
            let version = ["HTTP/1.1", "HTTP/1.0", "HTTP/2.0", "HTTP/1.1 x", "", "http/1.1"][Int.random(in: 0..<6, using: &random)]
            let space = [" ", " ", " ", "  ", "\t"][Int.random(in: 0..<5, using: &random)]
            return method + space + target + " " + version
        }
        var mismatches: [String] = []
        for line in lines where Self.referenceLine(line) != Self.parsedLine(line) {
            mismatches.append("\(line.debugDescription): \(Self.referenceLine(line)) vs \(Self.parsedLine(line))")
        }
        #expect(mismatches.isEmpty, "\(mismatches.prefix(5))")
    }

    @Test("5,000 generated targets, ASCII and not, split into the same path and query")
    func targets() {
        let targets = Self.generated(5_000, seed: 12) { random in
            (0..<Int.random(in: 0..<6, using: &random)).map { _ in Self.pieces.randomElement(using: &random) ?? "" }.joined()
        }
        for target in targets {
            let request = HTTPRequest(method: "GET", target: target)
            let expected = Self.referenceSplit(target)
            #expect(request.path == expected.0 && request.query == expected.1, "\(target.debugDescription)")
        }
    }
}
