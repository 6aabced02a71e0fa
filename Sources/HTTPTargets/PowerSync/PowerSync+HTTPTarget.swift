import Corpus
import Foundation
import HTTP
import JSON
import PowerSyncWire
import ServerContract
import Transport

extension PowerSync {
    /// A PowerSync-shaped service reached over HTTP (`accord serve --profile powersync --fixtures`,
    /// or a team's own service with the same fixture endpoint): the three endpoints as the
    /// transcript's user, with an HS256 JWT whose `sub` is the user, and the source-side steps
    /// through `POST /accord/powersync/reset|configure|source|replicate` (docs/powersync.md).
    public struct HTTPTarget: ServerTarget {
        let base: String
        let key: JWTKey
        let session: CurlSession
        /// Seconds a stream may stay silent before the lane stops waiting for its next line.
        let silence: Int

        /// Makes a target.
        /// - Parameters:
        ///   - baseURL: the service's URL, e.g. `http://127.0.0.1:8080`.
        ///   - secret: the HS256 secret the service verifies tokens with.
        ///   - silence: seconds a stream may stay silent.
        /// - Throws: `TargetError` when the HTTP client cannot be set up.
        public init(baseURL: String, secret: String, silence: Int = 5) throws(TargetError) {
            base = baseURL.hasSuffix("/") ? String(baseURL.dropLast()) : baseURL
            key = JWTKey(secret: secret)
            self.silence = silence
            do { session = try CurlSession() } catch { throw TargetError.unreachable("\(error)") }
        }

        /// Resets the service (a case starts from an empty one) and sets its data page size.
        public func configure(_ settings: PowerSync.ServiceSettings) async throws(TargetError) {
            try await fixture(.reset, .object(JSONObject()))
            var members: [(String, JSONValue)] = []
            if let ops = settings.dataPageOps { members.append(("data_page_ops", .number(JSONNumber(ops)))) }
            try await fixture(.configure, .object(JSONObject(pairs: members)))
        }

        /// `POST /accord/powersync/source`.
        public func apply(_ commit: SourceCommit) async throws(TargetError) { try await fixture(.source, commit.json) }

        /// `POST /accord/powersync/replicate`.
        public func replicate() async throws(TargetError) { try await fixture(.replicate, .object(JSONObject())) }

        /// `GET /write-checkpoint2.json` with the query parameters as the object names them.
        public func writeCheckpoint(query: JSONValue, userID: String) async throws(TargetError) -> JSONValue {
            let pairs = (query.objectValue?.members ?? []).map { member in
                "\(Self.encode(member.key))=\(Self.encode(member.value.stringValue ?? CanonicalJSON.compact(member.value)))"
            }
            let url = base + PowerSync.Surface.Route.writeCheckpoint.path + (pairs.isEmpty ? "" : "?" + pairs.joined(separator: "&"))
            return try await answer(try await send("GET", url, userID: userID, body: []))
        }

        /// `POST /sync/checkpoint-request`.
        public func checkpointRequest(body: JSONValue, userID: String) async throws(TargetError) -> JSONValue {
            try await answer(
                try await send(
                    "POST", base + PowerSync.Surface.Route.checkpointRequest.path, userID: userID,
                    body: Array(CanonicalJSON.compact(body).utf8))
            )
        }

        /// `POST /sync/stream`: the lines as the service flushes them.
        public func openStream(body: JSONValue, userID: String) async throws(TargetError) -> any PowerSync.StreamHandle {
            let stream = LineStream(
                "POST", base + PowerSync.Surface.Route.syncStream.path, headers: headers(userID),
                body: Array(CanonicalJSON.compact(body).utf8),
                silence: silence)
            return HTTPSyncStream(stream)
        }

        func headers(_ userID: String) -> [(String, String)] {
            let expires = Int(Date().timeIntervalSince1970) + 3600
            let token = key.mint(JWTClaims(subject: userID, sessionID: nil, expiresAt: expires))
            return [("Authorization", PowerSync.Surface.clientScheme + " " + token), ("Content-Type", "application/json")]
        }

        private func send(_ method: String, _ url: String, userID: String, body: [UInt8]) async throws(TargetError) -> ClientResponse {
            do throws(TransportError) { return try await session.send(method, url, headers: headers(userID), body: body) } catch {
                throw TargetError.unreachable("\(error)")
            }
        }

        private func answer(_ response: ClientResponse) async throws(TargetError) -> JSONValue {
            guard response.status == 200 else {
                throw TargetError.refused("HTTP \(response.status): \(String(decoding: response.body, as: UTF8.self))")
            }
            do { return try JSONParser.parse(response.body) } catch { throw TargetError.refused("the answer is not JSON: \(error)") }
        }

        private func fixture(_ call: PowerSync.Surface.Fixture, _ body: JSONValue) async throws(TargetError) {
            let response: ClientResponse
            do throws(TransportError) {
                response = try await session.send(
                    "POST", base + call.path, headers: [("Content-Type", "application/json")],
                    body: Array(CanonicalJSON.compact(body).utf8))
            } catch {
                throw TargetError.unreachable("\(error)")
            }
            guard response.status == 204 else {
                throw TargetError.refused(
                    "fixture \(call.rawValue): HTTP \(response.status): \(String(decoding: response.body, as: UTF8.self))")
            }
        }

        private static func encode(_ text: String) -> String {
            text.addingPercentEncoding(withAllowedCharacters: .urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+"))) ?? text
        }
    }
}

/// An open stream over HTTP: one line at a time from the transfer; nil once it ended (the
/// service closed it, or it stayed silent past the target's patience).
actor HTTPSyncStream: PowerSync.StreamHandle {
    private let stream: LineStream
    private var iterator: AsyncStream<[UInt8]>.Iterator

    init(_ stream: LineStream) {
        self.stream = stream
        self.iterator = stream.lines.makeAsyncIterator()
    }

    func nextLine() async throws(TargetError) -> JSONValue? {
        var lines = iterator
        let next = await lines.next(isolation: self)
        iterator = lines
        guard let line = next else {
            if let ending = stream.ending, ending.status != 0, ending.status != 200 {
                throw TargetError.refused("POST /sync/stream answered HTTP \(ending.status)")
            }
            if let error = stream.ending?.error, !error.isSilence { throw TargetError.unreachable("\(error)") }
            return nil
        }
        do { return try JSONParser.parse(line) } catch {
            throw TargetError.refused("an NDJSON line is not JSON: \(error)")
        }
    }

    func close() async { stream.close() }
}
