import JSON

extension PostgRESTSurface {
    /// KizunaSync's JWT claims: who calls (`sub`), from which client (`session_id`), as which
    /// PostgreSQL role (`role`).
    public enum Claim {
        /// The user the call is made as.
        public static let user = "sub"
        /// The client (session) the call comes from; the pull and push functions read it when a
        /// body names no `client_id`.
        public static let session = "session_id"
        /// The PostgreSQL role PostgREST switches to.
        public static let role = "role"
    }

    /// The user and client a bearer JWT names, read without verifying it (a recorder or a HAR
    /// file sees tokens it holds no key for).
    public struct BearerIdentity: Sendable, Hashable {
        /// The `sub` claim, if it is a string.
        public var user: String?
        /// The `session_id` claim, if it is a string.
        public var client: String?

        /// Makes an identity.
        public init(user: String? = nil, client: String? = nil) {
            self.user = user
            self.client = client
        }
    }

    /// The unverified claims of an `Authorization: Bearer <jwt>` value (`UnverifiedJWT`).
    /// - Parameter authorization: the header value.
    /// - Returns: the claims, or nil when the value is not a bearer JWT with a JSON object payload.
    public static func unverifiedClaims(authorization: some StringProtocol) -> JSONObject? {
        guard let space = authorization.firstIndex(of: " "), authorization[..<space].lowercased() == "bearer" else { return nil }
        return UnverifiedJWT.claims(authorization[authorization.index(after: space)...])
    }

    /// The user and client of a bearer JWT, read without verifying it.
    /// - Parameter authorization: the `Authorization` header value, if any.
    /// - Returns: the identity; both nil when there is no readable bearer JWT.
    public static func bearerIdentity(authorization: String?) -> BearerIdentity {
        guard let authorization, let claims = unverifiedClaims(authorization: authorization) else { return BearerIdentity() }
        return BearerIdentity(user: claims[Claim.user]?.stringValue, client: claims[Claim.session]?.stringValue)
    }
}
