import Foundation
import HTTP
import KizunaWire
import ServerContract

extension JWTKey {
    /// Mints a token for an identity: `sub` = user, `session_id` = session, `role` = authenticated.
    /// - Parameters:
    ///   - identity: the caller.
    ///   - expiresAt: `exp` in seconds since 1970, or nil for none.
    /// - Returns: the compact JWT.
    public func mint(for identity: Identity, expiresAt: Int? = nil) -> String {
        mint(JWTClaims(subject: identity.user, sessionID: identity.session, expiresAt: expiresAt))
    }

    /// Verifies a token and reads its identity.
    /// - Parameters:
    ///   - token: the compact JWT.
    ///   - now: the time to judge `exp` by.
    /// - Returns: the identity (`sub`, `session_id`).
    /// - Throws: `JWTError` when the token is refused or has no string `sub`.
    public func identity(_ token: String, now: Date = Date()) throws(JWTError) -> Identity {
        let claims = try verify(token, now: now)
        guard let subject = claims.subject, !subject.isEmpty else { throw .malformed("no sub claim") }
        if let session = claims.payload[PostgRESTSurface.Claim.session], session.stringValue == nil, !session.isNull {
            throw .malformed("session_id is not a string")
        }
        return Identity(user: subject, session: claims.sessionID)
    }
}
