import PowerSyncWire
import SQLite

extension PowerSync {
    /// A failure of the embedded PowerSync service itself (storage, or a source step it cannot take),
    /// never a protocol answer.
    public struct ServiceError: Error, CustomStringConvertible, Sendable {
        private enum Code: Sendable { case open, sql, source, exhausted }
        private let code: Code
        /// What happened.
        public let detail: String

        private init(_ code: Code, _ detail: String) {
            self.code = code
            self.detail = detail
        }

        static func open(_ detail: String) -> PowerSync.ServiceError { PowerSync.ServiceError(.open, detail) }
        static func sql(_ detail: String) -> PowerSync.ServiceError { PowerSync.ServiceError(.sql, detail) }
        static func source(_ detail: String) -> PowerSync.ServiceError { PowerSync.ServiceError(.source, detail) }
        /// An id counter at 2^63−1, the largest a bigint id holds.
        static func exhausted(_ detail: String) -> PowerSync.ServiceError { PowerSync.ServiceError(.exhausted, detail) }

        /// The kind of failure and its detail.
        public var description: String {
            switch code {
            case .open: "PowerSync service cannot open its database: \(detail)"
            case .sql: "PowerSync service storage error: \(detail)"
            case .source: "PowerSync service cannot take a source step: \(detail)"
            case .exhausted: "PowerSync service cannot make a greater id: \(detail)"
            }
        }
    }
}

extension PowerSync.ServiceError: SQLiteFailure {
    /// A database that does not open.
    public static func cannotOpen(_ message: String) -> PowerSync.ServiceError { .open(message) }
    /// A statement that does not run, prepare or bind.
    public static func failed(_ message: String) -> PowerSync.ServiceError { .sql(message) }
    /// A statement that fails while stepping.
    public static func stepFailed(_ message: String, sql: String) -> PowerSync.ServiceError { .sql("\(message) in: \(sql)") }
    /// A closed connection.
    public static var closed: PowerSync.ServiceError { .sql("closed") }
}
