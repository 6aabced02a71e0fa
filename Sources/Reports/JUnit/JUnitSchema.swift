internal import CLibXML2

/// Validates XML documents against an XML Schema with libxml2, e.g. JUnit output against
/// `junit-10.xsd`.
public enum JUnitSchema {
    /// The most messages kept from one validation; later ones are counted, not kept.
    static let messageLimit = 50

    /// Checks that `xml` is well-formed and valid against the schema given as bytes.
    ///
    /// Both are parsed from memory (the caller reads the `.xsd`), without network access,
    /// entity expansion or DTD loading, so this layer does no I/O.
    /// - Parameters:
    ///   - xml: the document's bytes.
    ///   - schema: the `.xsd` file's bytes.
    /// - Throws: `ReportError.schemaUnusable` when the schema cannot be read or compiled,
    ///   `ReportError.documentMalformed` when the document is not well-formed XML, and
    ///   `ReportError.documentInvalid` when it breaks the schema; each carries libxml2's
    ///   messages in `messages` and `description`.
    public static func validate(xml: [UInt8], schema schemaBytes: [UInt8]) throws {
        LibXML2.initialized
        let schema = try compile(schemaBytes)
        defer { xmlSchemaFree(schema) }
        let document = try parse(xml)
        defer { xmlFreeDoc(document) }

        guard let validator = xmlSchemaNewValidCtxt(schema) else {
            throw ReportError.schema(["xmlSchemaNewValidCtxt failed"])
        }
        defer { xmlSchemaFreeValidCtxt(validator) }
        let collector = MessageCollector()
        let result = withExtendedLifetime(collector) { () -> Int32 in
            xmlSchemaSetValidStructuredErrors(validator, MessageCollector.handler, collector.context)
            return xmlSchemaValidateDoc(validator, document)
        }
        if result == 0 { return }
        var messages = collector.finished()
        if messages.isEmpty { messages = ["xmlSchemaValidateDoc returned \(result)"] }
        throw ReportError.invalid(messages)
    }

    private static func compile(_ bytes: [UInt8]) throws -> xmlSchemaPtr {
        guard bytes.count <= Int(Int32.max) else { throw ReportError.schema(["the schema is larger than libxml2 can parse from memory"]) }
        let collector = MessageCollector()
        let schema = collector.collectingStrayErrors { () -> xmlSchemaPtr? in
            let created = bytes.withUnsafeBufferPointer { buffer in
                buffer.withMemoryRebound(to: CChar.self) { xmlSchemaNewMemParserCtxt($0.baseAddress, Int32($0.count)) }
            }
            guard let parser = created else { return nil }
            defer { xmlSchemaFreeParserCtxt(parser) }
            xmlSchemaSetParserStructuredErrors(parser, MessageCollector.handler, collector.context)
            return xmlSchemaParse(parser)
        }
        guard let schema else {
            var messages = collector.finished()
            if messages.isEmpty { messages = ["the schema does not compile"] }
            throw ReportError.schema(messages)
        }
        return schema
    }

    private static func parse(_ xml: [UInt8]) throws -> xmlDocPtr {
        guard xml.count <= Int(Int32.max) else {
            throw ReportError.malformed(["the document is larger than libxml2 can parse from memory"])
        }
        guard let parser = xmlNewParserCtxt() else {
            throw ReportError.malformed(["xmlNewParserCtxt failed"])
        }
        defer { xmlFreeParserCtxt(parser) }
        let options = Int32(bitPattern: XML_PARSE_NONET.rawValue | XML_PARSE_NOWARNING.rawValue)
        let collector = MessageCollector()
        let document = collector.collectingStrayErrors {
            xml.withUnsafeBufferPointer { bytes in
                bytes.withMemoryRebound(to: CChar.self) { chars in
                    xmlCtxtReadMemory(parser, chars.baseAddress, Int32(chars.count), "report.xml", nil, options)
                }
            }
        }
        guard let document, parser.pointee.wellFormed != 0 else {
            if let document { xmlFreeDoc(document) }
            var messages = collector.finished()
            if messages.isEmpty {
                messages = [
                    xmlCtxtGetLastError(parser).flatMap { MessageCollector.describe($0.pointee) }
                        ?? "the document is not well-formed XML"
                ]
            }
            throw ReportError.malformed(messages)
        }
        return document
    }
}

/// Gathers libxml2's structured errors, keeping the first few.
private final class MessageCollector {
    private var messages: [String] = []
    private var dropped = 0

    /// The pointer libxml2 hands back to `handler`; valid while the collector is alive.
    var context: UnsafeMutableRawPointer { Unmanaged.passUnretained(self).toOpaque() }

    /// The libxml2 callback that records one error.
    static let handler: xmlStructuredErrorFunc = { context, error in
        guard let context, let error else { return }
        let collector = Unmanaged<MessageCollector>.fromOpaque(context).takeUnretainedValue()
        guard let message = describe(error.pointee) else { return }
        if collector.messages.count < JUnitSchema.messageLimit {
            collector.messages.append(message)
        } else {
            collector.dropped += 1
        }
    }

    /// Runs `body` with this collector as the thread's libxml2 structured error handler, so that
    /// errors raised outside any context (such as I/O warnings) are collected instead of printed.
    /// libxml2 keeps the handler per thread; the previous one is restored afterwards.
    func collectingStrayErrors<Result>(_ body: () -> Result) -> Result {
        let previous = __xmlStructuredError()?.pointee
        let previousContext = __xmlStructuredErrorContext()?.pointee
        xmlSetStructuredErrorFunc(context, Self.handler)
        defer { xmlSetStructuredErrorFunc(previousContext, previous) }
        return withExtendedLifetime(self) { body() }
    }

    /// The messages, with a closing note when some were dropped.
    func finished() -> [String] {
        dropped == 0 ? messages : messages + ["… and \(dropped) more"]
    }

    /// Renders one libxml2 error as "line N: message".
    static func describe(_ error: xmlError) -> String? {
        guard let text = error.message else { return nil }
        var message = String(cString: text)
        while message.last?.isNewline == true || message.last == " " { message.removeLast() }
        return error.line > 0 ? "line \(error.line): \(message)" : message
    }
}
