/// An error raised while writing or validating a report.
///
/// The kinds are exposed as static prototypes so callers can match on them
/// (`catch let error as ReportError where error == .documentInvalid`); two errors are equal when
/// they are of the same kind, whatever their details.
public struct ReportError: Error, CustomStringConvertible, Equatable {
    private enum Code: Sendable {
        case sinkFailed((any Error)?)
        case writerFailed(String)
        case alreadyFinished
        case schemaUnusable([String])
        case documentMalformed([String])
        case documentInvalid([String])

        var kind: Int {
            switch self {
            case .sinkFailed: 0
            case .writerFailed: 1
            case .alreadyFinished: 2
            case .schemaUnusable: 3
            case .documentMalformed: 4
            case .documentInvalid: 5
            }
        }
    }

    private let code: Code

    private init(_ code: Code) { self.code = code }

    /// The report sink refused bytes; see `underlying` for the sink's own error.
    public static let sinkFailed = ReportError(.sinkFailed(nil))
    /// libxml2's writer rejected an operation for a reason other than the sink.
    public static let writerFailed = ReportError(.writerFailed(""))
    /// The writer was used after `finish()` or after an earlier failure.
    public static let alreadyFinished = ReportError(.alreadyFinished)
    /// The XML schema could not be read or compiled.
    public static let schemaUnusable = ReportError(.schemaUnusable([]))
    /// The document to validate is not well-formed XML.
    public static let documentMalformed = ReportError(.documentMalformed([]))
    /// The document is well-formed but does not satisfy the schema.
    public static let documentInvalid = ReportError(.documentInvalid([]))

    static func sink(_ error: any Error) -> ReportError { ReportError(.sinkFailed(error)) }
    static func writer(_ operation: String) -> ReportError { ReportError(.writerFailed(operation)) }
    static func schema(_ messages: [String]) -> ReportError { ReportError(.schemaUnusable(messages)) }
    static func malformed(_ messages: [String]) -> ReportError { ReportError(.documentMalformed(messages)) }
    static func invalid(_ messages: [String]) -> ReportError { ReportError(.documentInvalid(messages)) }

    /// The error the sink threw, for `sinkFailed` errors.
    public var underlying: (any Error)? {
        if case .sinkFailed(let error) = code { return error }
        return nil
    }

    /// libxml2's messages, one per problem, for schema and document errors; empty otherwise.
    public var messages: [String] {
        switch code {
        case .schemaUnusable(let messages), .documentMalformed(let messages), .documentInvalid(let messages):
            return messages
        case .sinkFailed, .writerFailed, .alreadyFinished:
            return []
        }
    }

    /// A readable account of the error, including libxml2's messages where there are any.
    public var description: String {
        switch code {
        case .sinkFailed(let error):
            return "ReportError.sinkFailed: " + (error.map { String(describing: $0) } ?? "the sink refused bytes")
        case .writerFailed(let operation):
            return "ReportError.writerFailed: libxml2 rejected \(operation.isEmpty ? "an operation" : operation)"
        case .alreadyFinished:
            return "ReportError.alreadyFinished: the writer was finished or failed earlier"
        case .schemaUnusable(let messages):
            return Self.listing("ReportError.schemaUnusable", messages)
        case .documentMalformed(let messages):
            return Self.listing("ReportError.documentMalformed", messages)
        case .documentInvalid(let messages):
            return Self.listing("ReportError.documentInvalid", messages)
        }
    }

    /// Tells whether two errors are of the same kind.
    /// - Parameters:
    ///   - lhs: one error.
    ///   - rhs: the other error.
    /// - Returns: true when both are of the same kind; details are not compared.
    public static func == (lhs: ReportError, rhs: ReportError) -> Bool {
        lhs.code.kind == rhs.code.kind
    }

    private static func listing(_ head: String, _ messages: [String]) -> String {
        if messages.isEmpty { return head }
        return head + ":\n" + messages.map { "  " + $0 }.joined(separator: "\n")
    }
}
