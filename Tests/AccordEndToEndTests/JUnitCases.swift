import Foundation

#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The test cases of a JUnit report as a CI consumer reads them: parsed as XML (not matched as
/// text), each with its classname, name, time, and its `<failure>`, `<skipped>` and `<error>` children.
struct JUnitCases {
    struct Case: Hashable {
        var classname = ""
        var name = ""
        var time = ""
        /// `(type, message, text)` of each `<failure>`.
        var failures: [Failure] = []
        var skipped: String?
        var errored: String?
    }

    struct Failure: Hashable {
        var type: String
        var message: String
        var text: String
    }

    /// The cases, in document order.
    var cases: [Case]
    /// Each suite's properties, by suite name.
    var properties: [String: [String: String]]

    /// Parses a report.
    /// - Parameter bytes: the report's bytes.
    /// - Throws: when the document is not well-formed XML.
    init(_ bytes: Data) throws {
        let reader = Reader()
        let parser = XMLParser(data: bytes)
        parser.delegate = reader
        guard parser.parse() else {
            throw JUnitCasesError(detail: parser.parserError.map { "\($0)" } ?? "not well-formed")
        }
        cases = reader.cases
        properties = reader.properties
    }

    /// The (classname, name) pairs that occur more than once, with their counts.
    var repeatedPairs: [String: Int] {
        var counts: [String: Int] = [:]
        for item in cases { counts["\(item.classname) : \(item.name)", default: 0] += 1 }
        return counts.filter { $0.value > 1 }
    }
}

struct JUnitCasesError: Error, CustomStringConvertible {
    var detail: String
    var description: String { "not a JUnit report: \(detail)" }
}

private final class Reader: NSObject, XMLParserDelegate {
    var cases: [JUnitCases.Case] = []
    var properties: [String: [String: String]] = [:]
    private var current: JUnitCases.Case?
    private var suite = ""
    private var failure: JUnitCases.Failure?

    func parser(
        _ parser: XMLParser, didStartElement element: String, namespaceURI: String?, qualifiedName: String?,
        attributes: [String: String] = [:]
    ) {
        switch element {
        case "testsuite": suite = attributes["name"] ?? ""
        case "property": properties[suite, default: [:]][attributes["name"] ?? ""] = attributes["value"] ?? ""
        case "testcase":
            current = JUnitCases.Case(
                classname: attributes["classname"] ?? "", name: attributes["name"] ?? "", time: attributes["time"] ?? "")
        case "failure": failure = JUnitCases.Failure(type: attributes["type"] ?? "", message: attributes["message"] ?? "", text: "")
        case "skipped": current?.skipped = attributes["message"] ?? ""
        case "error": current?.errored = attributes["message"] ?? ""
        default: break
        }
    }

    func parser(_ parser: XMLParser, foundCharacters string: String) {
        failure?.text += string
    }

    func parser(_ parser: XMLParser, didEndElement element: String, namespaceURI: String?, qualifiedName: String?) {
        switch element {
        case "failure":
            if let failure { current?.failures.append(failure) }
            failure = nil
        case "testcase":
            if let current { cases.append(current) }
            current = nil
        default: break
        }
    }
}
