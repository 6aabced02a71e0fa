import Foundation
import HTTP
import JSON
import KizunaWire
import ServerContract
import Transport

extension KizunaSync {
    /// A server under test reached over HTTP: the PostgREST surface for the RPCs, with JWTs minted
    /// from the shared secret, and the fixture endpoint of docs/server-contract.md for setup.
    public actor HTTPTarget: ServerTarget {
        let base: String
        let key: JWTKey
        let apiKey: String?
        let session: CurlSession

        /// Makes a target.
        /// - Parameters:
        ///   - baseURL: the server's root, e.g. `http://127.0.0.1:54321`.
        ///   - secret: the HS256 secret the server verifies JWTs with.
        ///   - apiKey: the `apikey` header to send, when the server wants one.
        /// - Throws: `TargetError` when the HTTP client cannot start.
        public init(baseURL: String, secret: String, apiKey: String? = nil) throws(TargetError) {
            var trimmed = baseURL
            while trimmed.hasSuffix("/") { trimmed.removeLast() }
            self.base = trimmed
            self.key = JWTKey(secret: secret)
            self.apiKey = apiKey
            do { self.session = try CurlSession() } catch { throw TargetError.unreachable("\(error)") }
        }

        /// Asks `GET /accord/fixtures/capabilities`; a server that does not answer it (404) is
        /// taken to have the reference server's (a logical clock, seqs stamped at write).
        /// - Returns: the capabilities.
        /// - Throws: `TargetError` when the server cannot be reached or answers something else.
        public func capabilities() async throws(TargetError) -> TargetCapabilities {
            let response: ClientResponse
            do {
                response = try await session.send("GET", base + "/accord/fixtures/capabilities")
            } catch {
                throw TargetError.unreachable("\(error)")
            }
            return try FixtureRequest.capabilities(status: response.status, body: response.body)
        }

        /// Resets the server through `POST /accord/fixtures/seed`.
        /// - Returns: the receipt the server answered (200), or `SeedReceipt.asSeeded` for a 204.
        /// - Throws: `TargetError` mapped from the fixture endpoint's answer.
        public func seed(_ seed: Seed) async throws(TargetError) -> SeedReceipt {
            let response = try await send("/accord/fixtures/seed", [("Content-Type", "application/json")], FixtureRequest.body(seed: seed))
            return try FixtureRequest.receipt(status: response.status, body: response.body, for: seed)
        }

        /// Sets the logical clock through `POST /accord/fixtures/step`.
        /// - Throws: `TargetError` mapped from the fixture endpoint's answer.
        public func setStep(_ step: Int) async throws(TargetError) { try await fixture("step", FixtureRequest.body(step: step)) }

        /// Applies a change through `POST /accord/fixtures/change`.
        /// - Parameters:
        ///   - change: the change.
        ///   - transaction: the held transaction, or nil.
        /// - Throws: `TargetError` mapped from the fixture endpoint's answer.
        public func apply(_ change: FixtureChange, heldIn transaction: String?) async throws(TargetError) {
            try await fixture("change", FixtureRequest.body(change: change, heldIn: transaction))
        }

        /// Commits a held transaction through `POST /accord/fixtures/commit`.
        /// - Throws: `TargetError` mapped from the fixture endpoint's answer.
        public func commit(transaction: String) async throws(TargetError) {
            try await fixture("commit", FixtureRequest.body(commit: transaction))
        }

        /// Calls `POST /rest/v1/rpc/pull` with a JWT minted for the caller.
        /// - Returns: the status and body.
        /// - Throws: `TargetError` when the server cannot be reached or answers non-JSON.
        public func pull(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply {
            try await rpc("pull", body, identity)
        }

        /// Calls `POST /rest/v1/rpc/push` with a JWT minted for the caller.
        /// - Returns: the status and body.
        /// - Throws: `TargetError` when the server cannot be reached or answers non-JSON.
        public func push(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply {
            try await rpc("push", body, identity)
        }

        private func rpc(_ name: String, _ body: JSONValue, _ identity: Identity) async throws(TargetError) -> RPCReply {
            let response = try await send(PostgRESTSurface.rpcPath(name), rpcHeaders(identity), body)
            do {
                return RPCReply(status: response.status, body: try JSONParser.parse(response.body))
            } catch {
                throw TargetError.refused("rpc/\(name) answered HTTP \(response.status) with a body that is not JSON: \(error)")
            }
        }

        /// The headers of an RPC call as a caller: a minted JWT, the media types, the profile and the apikey.
        func rpcHeaders(_ identity: Identity) -> [(String, String)] {
            typealias H = PostgRESTSurface.Header
            var headers = [
                (H.authorization, "Bearer " + key.mint(JWTClaims(subject: identity.user, sessionID: identity.session))),
                (H.contentType, "application/json"),
                (H.accept, "application/json"), (H.contentProfile, PostgRESTSurface.profile),
            ]
            if let apiKey { headers.append((H.apikey, apiKey)) }
            return headers
        }

        private func fixture(_ name: String, _ body: JSONValue) async throws(TargetError) {
            let response = try await send("/accord/fixtures/\(name)", [("Content-Type", "application/json")], body)
            if let error = FixtureRequest.targetError(status: response.status, body: response.body) { throw error }
        }

        func send(_ path: String, _ headers: [(String, String)], _ body: JSONValue) async throws(TargetError) -> ClientResponse {
            var bytes: [UInt8] = []
            CanonicalJSON.writeCompact(body, into: &bytes)
            do {
                return try await session.send("POST", base + path, headers: headers, body: bytes)
            } catch {
                throw TargetError.unreachable("\(error)")
            }
        }
    }
}
