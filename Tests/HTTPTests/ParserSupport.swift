import HTTP

/// Helpers for parser tests: parse text and read the outcome.
enum ParserSupport {
    static func parse(_ text: String, limits: HTTPLimits = HTTPLimits()) -> HTTPRequestParser.Outcome {
        HTTPRequestParser(limits: limits).parse(Array(text.utf8)[...])
    }

    static func parse(bytes: [UInt8], limits: HTTPLimits = HTTPLimits()) -> HTTPRequestParser.Outcome {
        HTTPRequestParser(limits: limits).parse(bytes[...])
    }

    /// The request of a complete outcome.
    static func request(_ outcome: HTTPRequestParser.Outcome) -> HTTPRequest? {
        if case .complete(let request, _) = outcome { return request }
        return nil
    }

    /// The refusal status of a failed outcome.
    static func status(_ outcome: HTTPRequestParser.Outcome) -> Int? {
        if case .failed(let error) = outcome { return error.status }
        return nil
    }

    static func isIncomplete(_ outcome: HTTPRequestParser.Outcome) -> Bool {
        if case .incomplete = outcome { return true }
        return false
    }
}
