import PowerSyncWire
import SQLite

extension PowerSync {
    /// A failure of the reference PowerSync client, with the code the driver protocol answers
    /// (docs/driver-protocol.md §11).
    public struct ClientError: Error, Sendable, CustomStringConvertible {
        private enum Code: String, Sendable {
            case store = "STORE"
            case upload = "UPLOAD"
            case download = "DOWNLOAD"
            case remote = "REMOTE"
            case disconnected = "DISCONNECTED"
            case unknownRequest = "UNKNOWN_REQUEST"
            case requestsOff = "REQUESTS_OFF"
        }

        private let code: Code
        /// What happened, for people.
        public let message: String

        private init(_ code: Code, _ message: String) {
            self.code = code
            self.message = message
        }

        /// The protocol code, e.g. "UPLOAD".
        public var protocolCode: String { code.rawValue }
        /// "CODE: message".
        public var description: String { "\(code.rawValue): \(message)" }

        /// The local database failed.
        static func store(_ message: String) -> PowerSync.ClientError { PowerSync.ClientError(.store, message) }
        /// The backend refused an upload.
        static func upload(_ message: String) -> PowerSync.ClientError { PowerSync.ClientError(.upload, message) }
        /// The sync stream answered an error.
        static func download(_ message: String) -> PowerSync.ClientError { PowerSync.ClientError(.download, message) }
        /// A transport fault.
        static func remote(_ message: String) -> PowerSync.ClientError { PowerSync.ClientError(.remote, message) }
        /// The client is disconnected.
        static func disconnected(_ message: String) -> PowerSync.ClientError { PowerSync.ClientError(.disconnected, message) }
        /// A request the client does not hold.
        static func unknownRequest(_ message: String) -> PowerSync.ClientError { PowerSync.ClientError(.unknownRequest, message) }
        /// A checkpoint request asked of a client in legacy checkpoint mode.
        static func requestsOff(_ message: String) -> PowerSync.ClientError { PowerSync.ClientError(.requestsOff, message) }
    }
}

extension PowerSync.ClientError: SQLiteFailure {
    /// A database that does not open.
    public static func cannotOpen(_ message: String) -> PowerSync.ClientError { .store(message) }
    /// A statement that does not run, prepare or bind.
    public static func failed(_ message: String) -> PowerSync.ClientError { .store(message) }
    /// A statement that fails while stepping.
    public static func stepFailed(_ message: String, sql: String) -> PowerSync.ClientError { .store("\(message) in: \(sql)") }
    /// A closed connection.
    public static var closed: PowerSync.ClientError { .store("the local database is closed") }
}
