import Corpus
import Foundation
import JSON
import PowerSyncWire
import ServerContract
import Transport

extension PowerSync {
    /// A team's custom checkpoint backend as a server-lane target (`--server
    /// checkpoint-backend+https://…`): the route an app's `CustomCheckpointRequestConnector` posts its
    /// checkpoint requests to, which must keep the greatest id per user and client and answer the
    /// greater of it and the submitted one (the seed, "Checkpoint Request IDs"). Accord posts each
    /// checkpoint request of a case (`{"checkpoint_request_id", "client_id"}`, the backend's own
    /// credential as `Authorization: Bearer`) and reads `{"checkpoint_request_id": N}` or the
    /// service's envelope; an earlier session's held id (a `checkpoint_request` source change) is
    /// posted first. Client ids carry a suffix of this run, so a backend's stored state from other
    /// runs does not leak in. Streams, write checkpoints and other source changes are not its to answer.
    public struct CheckpointBackendTarget: ServerTarget {
        let url: String
        let token: String
        let session: CurlSession
        /// Appended to every client id: a run's clients are new to the backend.
        let run: String

        /// Makes a target.
        /// - Parameters:
        ///   - url: the backend route's URL.
        ///   - token: the app's credential for it, sent as `Bearer`.
        ///   - run: the suffix of this run's client ids.
        /// - Throws: `TargetError` when the HTTP client cannot be set up.
        public init(url: String, token: String, run: String) throws(TargetError) {
            self.url = url
            self.token = token
            self.run = run
            do { session = try CurlSession() } catch { throw TargetError.unreachable("\(error)") }
        }

        /// Checkpoint requests only.
        public var scope: PowerSync.TargetScope { .checkpointBackend }

        /// Nothing to configure: a backend has no page size.
        public func configure(_ settings: PowerSync.ServiceSettings) async throws(TargetError) {}

        /// Posts the held ids an earlier session left (`checkpoint_request` changes); the rest of the
        /// source side is the team's database's, not the backend route's.
        public func apply(_ commit: SourceCommit) async throws(TargetError) {
            for change in commit.changes {
                guard case .checkpointRequest(_, let client, let id) = change else { continue }
                _ = try await checkpointRequest(body: ["checkpoint_request_id": .string(id), "client_id": .string(client)], userID: "")
            }
        }

        /// Nothing to replicate.
        public func replicate() async throws(TargetError) {}

        /// Not a backend's route.
        public func writeCheckpoint(query: JSONValue, userID: String) async throws(TargetError) -> JSONValue {
            throw TargetError.refused("a checkpoint backend answers checkpoint requests only")
        }

        /// Posts one checkpoint request, its client id made this run's; the answer in the service's envelope.
        public func checkpointRequest(body: JSONValue, userID: String) async throws(TargetError) -> JSONValue {
            var sent = body
            if case .object(var object) = body, let client = object["client_id"]?.stringValue {
                object["client_id"] = .string(client + "~" + run)
                sent = .object(object)
            }
            let reply: ClientResponse
            do throws(TransportError) {
                reply = try await session.send(
                    "POST", url, headers: [("Authorization", "Bearer " + token), ("Content-Type", "application/json")],
                    body: Array(CanonicalJSON.compact(sent).utf8))
            } catch {
                throw TargetError.unreachable("\(error)")
            }
            let text = String(decoding: reply.body.prefix(512), as: UTF8.self)
            guard reply.status == 200 else { throw TargetError.refused("\(reply.status): \(text)") }
            guard let json = try? JSONParser.parse(reply.body) else {
                throw TargetError.refused("200 with a body that is not JSON: \(text)")
            }
            do throws(PowerSync.ShapeError) {
                return try CheckpointRequestAnswer(backend: json).json
            } catch {
                // The rules judge what came: a body they can read as the answer, however wrong.
                return json
            }
        }

        /// Not a backend's route.
        public func openStream(body: JSONValue, userID: String) async throws(TargetError) -> any PowerSync.StreamHandle {
            throw TargetError.refused("a checkpoint backend answers checkpoint requests only")
        }
    }
}
