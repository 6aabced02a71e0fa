import JSON
import KizunaWire
import PowerSyncWire

extension PowerSync {
    /// How the service answers, where a transcript needs it fixed (`"service"` at the top level).
    public struct ServiceSettings: Sendable, Hashable {
        /// The most ops one `data` line carries (nil: all of a bucket's ops in one line).
        public var dataPageOps: Int?

        /// Makes settings.
        /// - Parameter dataPageOps: the page size.
        public init(dataPageOps: Int? = nil) { self.dataPageOps = dataPageOps }

        /// Reads the optional top-level `service` member.
        /// - Parameter reader: the transcript's reader.
        /// - Returns: the settings (defaults when absent).
        /// - Throws: `WireError` (.json) naming the pointer.
        static func read(_ reader: inout ObjectReader) throws(WireError) -> PowerSync.ServiceSettings {
            guard let value = reader.optional("service") else { return PowerSync.ServiceSettings() }
            return try PowerSync.ServiceSettings(json: value, at: JSONPointer(tokens: ["service"]))
        }

        /// Reads `{"data_page_ops": N}` (N at least 1; absent for no limit), as a transcript's
        /// `service` member and the fixture endpoint's `configure` body write it; no other key.
        /// - Throws: `WireError` (.json) naming the pointer.
        public init(json: JSONValue, at pointer: JSONPointer = .root) throws(WireError) {
            var service = try ObjectReader(json, at: pointer, malformed: .json)
            let ops = try service.optionalInteger("data_page_ops")
            if let ops, ops < 1 { throw WireError(.json, at: pointer.appending("data_page_ops"), "data_page_ops is at least 1") }
            try service.finish()
            self.init(dataPageOps: ops)
        }
    }
}
