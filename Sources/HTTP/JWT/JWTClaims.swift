import JSON
import KizunaWire

/// The claims of a verified JWT, with the ones KizunaSync reads picked out.
public struct JWTClaims: Sendable, Hashable {
    /// The whole payload object.
    public var payload: JSONObject

    /// Wraps a payload.
    /// - Parameter payload: the payload object.
    public init(payload: JSONObject) { self.payload = payload }

    /// Makes claims for minting: `sub`, optional `session_id` and `exp`, `role: authenticated`, plus extras.
    /// - Parameters:
    ///   - subject: the user id (`sub`).
    ///   - sessionID: the client id (`session_id`).
    ///   - expiresAt: `exp` in seconds since 1970, or nil for no expiry.
    ///   - extra: further claims; they override the ones above.
    public init(subject: String, sessionID: String?, expiresAt: Int? = nil, extra: JSONObject = JSONObject()) {
        var claims: JSONObject = [
            PostgRESTSurface.Claim.user: .string(subject),
            PostgRESTSurface.Claim.role: .string("authenticated"),
        ]
        if let sessionID { claims.append(PostgRESTSurface.Claim.session, .string(sessionID)) }
        if let expiresAt { claims.append("exp", .number(JSONNumber(expiresAt))) }
        for member in extra.members {
            claims.members.removeAll { $0.key == member.key }
            claims.members.append(member)
        }
        payload = claims
    }

    /// The `sub` claim (the user id) when it is a string.
    public var subject: String? { payload[PostgRESTSurface.Claim.user]?.stringValue }

    /// The `session_id` claim (the client id) when it is a string.
    public var sessionID: String? { payload[PostgRESTSurface.Claim.session]?.stringValue }

    /// The `exp` claim in seconds since 1970, when it is a number.
    public var expiresAt: Double? { payload["exp"]?.numberValue.flatMap { Double($0.literal) } }

    /// The `nbf` claim in seconds since 1970, when it is a number.
    public var notBefore: Double? { payload["nbf"]?.numberValue.flatMap { Double($0.literal) } }
}
