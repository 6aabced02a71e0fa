import AccordDriver
import Foundation
import JSON
import Testing

@Suite("docs/driver-protocol.md")
struct DocumentLinesTests {
    /// The unabridged example lines of the document: indented JSON objects, without the `> `/`< ` marks.
    static func exampleLines() throws -> [String] {
        let docs = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let text = try String(contentsOf: docs.appendingPathComponent("docs/driver-protocol.md"), encoding: .utf8)
        return text.split(separator: "\n").compactMap { raw in
            var line = raw.drop(while: { $0 == " " })
            if line.hasPrefix("> ") || line.hasPrefix("< ") { line = line.dropFirst(2) }
            guard raw.hasPrefix("    "), line.hasPrefix("{\""), !line.contains("…") else { return nil }
            return String(line)
        }
    }

    @Test("every example request decodes and re-encodes to the same bytes; every example response decodes")
    func examples() throws {
        let lines = try Self.exampleLines()
        #expect(lines.count >= 20)
        var requests = 0
        var responses = 0
        for line in lines {
            let json = try JSONParser.parse(line)
            if json["op"] != nil {
                let request = try DriverRequest(line: Array(line.utf8))
                #expect(String(decoding: request.line.dropLast(), as: UTF8.self) == line)
                requests += 1
            } else {
                let ops = DriverOp.allCases.filter { (try? DriverResponse(json: json, answering: $0)) != nil }
                #expect(!ops.isEmpty, "\(line)")
                if let op = ops.first {
                    #expect(String(decoding: try DriverResponse(json: json, answering: op).line.dropLast(), as: UTF8.self) == line)
                }
                responses += 1
            }
        }
        #expect(requests >= 8)
        #expect(responses >= 8)
    }
}
