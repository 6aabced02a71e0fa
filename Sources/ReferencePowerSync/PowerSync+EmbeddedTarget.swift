import Corpus
import JSON
import PowerSyncWire
import ServerContract

extension PowerSync {
    /// The embedded service as the server lane's `PowerSync.ServerTarget`: requests decode with
    /// PowerSyncWire's strict decoders (a body the service refuses is `TargetError.refused`), and a
    /// stream answers lazily, so that a source step made while it is open shows up on it.
    public struct EmbeddedTarget: PowerSync.ServerTarget {
        /// The service behind it.
        public let service: PowerSync.Service

        /// Wraps a service.
        public init(service: PowerSync.Service) { self.service = service }

        /// Sets the data page size.
        public func configure(_ settings: PowerSync.ServiceSettings) async throws(TargetError) { await service.configure(settings) }

        /// Commits a source transaction.
        public func apply(_ commit: SourceCommit) async throws(TargetError) {
            do throws(PowerSync.ServiceError) { try await service.apply(commit) } catch { throw TargetError.refused("\(error)") }
        }

        /// Replication catches up.
        public func replicate() async throws(TargetError) {
            do throws(PowerSync.ServiceError) { try await service.replicate() } catch { throw TargetError.refused("\(error)") }
        }

        /// `GET /write-checkpoint2.json`.
        public func writeCheckpoint(query: JSONValue, userID: String) async throws(TargetError) -> JSONValue {
            do {
                let request = try WriteCheckpointRequest(json: query)
                return try await service.writeCheckpoint(userID: userID, clientID: request.clientID).json
            } catch {
                throw TargetError.refused("400: \(error)")
            }
        }

        /// `POST /sync/checkpoint-request`.
        public func checkpointRequest(body: JSONValue, userID: String) async throws(TargetError) -> JSONValue {
            do {
                let request = try CheckpointRequest(json: body)
                return try await service.checkpointRequest(request, userID: userID).json
            } catch {
                throw TargetError.refused("400: \(error)")
            }
        }

        /// `POST /sync/stream`.
        public func openStream(body: JSONValue, userID: String) async throws(TargetError) -> any PowerSync.StreamHandle {
            do throws(PowerSync.ShapeError) {
                return EmbeddedSyncStream(
                    service: service, cursor: StreamCursor(userID: userID, request: try SyncStreamRequest(json: body)))
            } catch {
                throw TargetError.refused("400: \(error.pointer): \(error.detail)")
            }
        }
    }
}

/// An open stream of the embedded service: it asks the service for the next answer when the
/// lines it has run out, and says nil when the service has nothing more to say now.
actor EmbeddedSyncStream: PowerSync.StreamHandle {
    private let service: PowerSync.Service
    private var cursor: StreamCursor
    private var buffered: [JSONValue] = []

    init(service: PowerSync.Service, cursor: StreamCursor) {
        self.service = service
        self.cursor = cursor
    }

    func nextLine() async throws(TargetError) -> JSONValue? {
        if buffered.isEmpty {
            var cursor = self.cursor
            do throws(PowerSync.ServiceError) { buffered = try await service.answer(&cursor).map(\.json) } catch {
                throw TargetError.refused("\(error)")
            }
            self.cursor = cursor
        }
        return buffered.isEmpty ? nil : buffered.removeFirst()
    }

    func close() async { buffered = [] }
}
