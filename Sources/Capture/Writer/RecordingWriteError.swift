/// A recording that cannot be written: the file cannot be created, or a write or sync failed.
/// The message names the file and the system's reason, never recorded content.
public struct RecordingWriteError: Error, CustomStringConvertible, Sendable, Hashable {
    private enum Code: Sendable, Hashable { case create, write, closed }
    private let code: Code
    /// The file concerned.
    public let file: String
    /// The system's reason.
    public let reason: String

    private init(_ code: Code, file: String, reason: String) {
        self.code = code
        self.file = file
        self.reason = reason
    }

    /// The file could not be created or opened.
    /// - Returns: the error.
    public static func create(_ file: String, _ reason: String) -> RecordingWriteError {
        RecordingWriteError(.create, file: file, reason: reason)
    }

    /// A write or fsync failed.
    /// - Returns: the error.
    public static func write(_ file: String, _ reason: String) -> RecordingWriteError {
        RecordingWriteError(.write, file: file, reason: reason)
    }

    /// The recording was already closed.
    /// - Returns: the error.
    public static func closed(_ file: String) -> RecordingWriteError { RecordingWriteError(.closed, file: file, reason: "closed") }

    /// What happened.
    public var description: String {
        switch code {
        case .create: "cannot create the recording \(file): \(reason)"
        case .write: "cannot write the recording \(file): \(reason)"
        case .closed: "the recording \(file) is closed"
        }
    }
}
