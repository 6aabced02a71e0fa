import JSON

/// Bad corpus or recording input: a missing file, invalid JSON, or a transcript, manifest or
/// recording line that breaks its grammar. Names the file and, where known, the line, step
/// and JSON pointer.
public struct CorpusError: Error, CustomStringConvertible, Sendable, Hashable {
    private enum Code: String, Sendable, Hashable {
        case unreadable, invalidJSON, grammar, manifest, emptyInput, tooLong
    }

    private let code: Code
    /// The file concerned, as the user named it.
    public let file: String
    /// The one-based line, when known.
    public let line: Int?
    /// The step number `n` (or recording exchange), when known.
    public let step: Int?
    /// The JSON pointer of the offending value, when known.
    public let pointer: JSONPointer?
    /// What is wrong.
    public let detail: String

    private init(_ code: Code, file: String, line: Int? = nil, step: Int? = nil, pointer: JSONPointer? = nil, detail: String) {
        self.code = code
        self.file = file
        self.line = line
        self.step = step
        self.pointer = pointer
        self.detail = detail
    }

    /// A file that cannot be read.
    /// - Parameters:
    ///   - file: the file.
    ///   - reason: why, e.g. "no such file".
    /// - Returns: the error.
    public static func unreadable(_ file: String, _ reason: String) -> CorpusError {
        CorpusError(.unreadable, file: file, detail: reason)
    }

    /// A file (or recording line) that is not JSON.
    /// - Parameters:
    ///   - file: the file.
    ///   - error: the parser's error.
    ///   - lineOffset: lines before the parsed text (for a recording line).
    /// - Returns: the error.
    public static func invalidJSON(_ file: String, _ error: JSONParseError, lineOffset: Int = 0) -> CorpusError {
        CorpusError(
            .invalidJSON, file: file, line: error.line + lineOffset, detail: "invalid JSON at column \(error.column): \(error.reason)")
    }

    /// A value that breaks the transcript, manifest or recording grammar.
    /// - Parameters:
    ///   - file: the file.
    ///   - step: the step number, when inside a step.
    ///   - line: the line, when known.
    ///   - pointer: the pointer of the value.
    ///   - detail: what is wrong.
    /// - Returns: the error.
    public static func grammar(_ file: String, step: Int? = nil, line: Int? = nil, at pointer: JSONPointer, _ detail: String) -> CorpusError
    {
        CorpusError(.grammar, file: file, line: line, step: step, pointer: pointer, detail: detail)
    }

    /// A manifest that does not match the transcripts one to one (I-12).
    /// - Parameters:
    ///   - file: the manifest or transcript concerned.
    ///   - pointer: the entry's pointer.
    ///   - detail: what is wrong.
    /// - Returns: the error.
    public static func manifest(_ file: String, at pointer: JSONPointer?, _ detail: String) -> CorpusError {
        CorpusError(.manifest, file: file, pointer: pointer, detail: "\(detail) (I-12)")
    }

    /// A recording line longer than the cap: the reader stops there rather than hold it.
    /// - Parameters:
    ///   - file: the file.
    ///   - line: the one-based line.
    ///   - limit: the cap in bytes (`--max-line`).
    /// - Returns: the error.
    public static func lineTooLong(_ file: String, line: Int, limit: Int) -> CorpusError {
        CorpusError(.tooLong, file: file, line: line, detail: "line longer than \(limit) bytes (the --max-line cap); not read")
    }

    /// A JSON file (a transcript, HAR log or settings file) larger than the cap.
    /// - Parameters:
    ///   - file: the file.
    ///   - limit: the cap in bytes (`--max-line`).
    /// - Returns: the error.
    public static func fileTooLarge(_ file: String, limit: Int) -> CorpusError {
        CorpusError(.tooLong, file: file, detail: "larger than \(limit) bytes (the --max-line cap); not read")
    }

    /// Input that holds nothing to check.
    /// - Parameters:
    ///   - file: the file.
    ///   - detail: what is missing.
    /// - Returns: the error.
    public static func empty(_ file: String, _ detail: String) -> CorpusError {
        CorpusError(.emptyInput, file: file, detail: detail)
    }

    /// True when the file could not be read at all.
    public var isUnreadable: Bool { code == .unreadable }

    /// "FILE:LINE: step N, /pointer: detail" with the parts that are known.
    public var description: String {
        var text = file
        if let line { text += ":\(line)" }
        var location: [String] = []
        if let step { location.append("step \(step)") }
        if let pointer { location.append(pointer.readable) }
        text += ": "
        if !location.isEmpty { text += location.joined(separator: " ") + ": " }
        return text + detail
    }
}
