import Foundation
import JSON
import KizunaWire

/// An HS256 secret that verifies and mints JWTs (RFC 7519, JWS compact form, RFC 7515).
public struct JWTKey: Sendable {
    private let secret: [UInt8]

    /// Makes a key from the secret's UTF-8 bytes (as PostgREST and Supabase read `jwt-secret`).
    /// - Parameter secret: the shared secret.
    public init(secret: String) { self.secret = Array(secret.utf8) }

    /// Makes a key from raw secret bytes.
    /// - Parameter bytes: the shared secret.
    public init(bytes: [UInt8]) { self.secret = bytes }

    /// Verifies a compact JWT: the header says HS256, the signature matches (constant-time), `exp`
    /// has not passed and `nbf` has, when present.
    /// - Parameters:
    ///   - token: the token, without the `Bearer ` prefix.
    ///   - now: the time to judge `exp` and `nbf` by.
    /// - Returns: the claims.
    /// - Throws: `JWTError` naming the first problem.
    public func verify(_ token: String, now: Date = Date()) throws(JWTError) -> JWTClaims {
        let parts = token.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { throw .malformed("expected three dot-separated parts, found \(parts.count)") }
        guard let headerBytes = Base64URL.decode(parts[0]), let payloadBytes = Base64URL.decode(parts[1]),
            let signature = Base64URL.decode(parts[2])
        else { throw .malformed("a part is not base64url") }
        let header = try Self.object(headerBytes, "header")
        guard header["alg"]?.stringValue == "HS256" else {
            throw .algorithm("alg is \(header["alg"].map { CanonicalJSON.compact($0) } ?? "absent"), expected \"HS256\"")
        }
        if let type = header["typ"], type.stringValue?.uppercased() != "JWT" { throw .malformed("typ is not JWT") }
        if header["crit"] != nil { throw .malformed("crit header parameters are not supported") }
        let signingInput = Array(token.utf8.prefix(parts[0].utf8.count + 1 + parts[1].utf8.count))
        guard HMACSHA256.constantTimeEqual(HMACSHA256.mac(key: secret, message: signingInput), signature) else {
            throw .signature("signature does not match")
        }
        let claims = JWTClaims(payload: try Self.object(payloadBytes, "payload"))
        let seconds = now.timeIntervalSince1970
        if claims.payload["exp"] != nil {
            // 1e400 reads as infinity: a token that would never expire, refused like any non-number.
            guard let expiresAt = claims.expiresAt, expiresAt.isFinite else { throw .malformed("exp is not a finite number") }
            if seconds >= expiresAt { throw .expired("JWT expired") }
        }
        if claims.payload["nbf"] != nil {
            guard let notBefore = claims.notBefore, notBefore.isFinite else { throw .malformed("nbf is not a finite number") }
            if seconds < notBefore { throw .notYetValid("JWT not valid yet") }
        }
        return claims
    }

    /// Mints a compact HS256 JWT; the payload is compact JSON with sorted keys.
    /// - Returns: the token.
    public func mint(_ claims: JWTClaims) -> String {
        let header = Base64URL.encode(Array(#"{"alg":"HS256","typ":"JWT"}"#.utf8))
        let payload = Base64URL.encode(Array(CanonicalJSON.compact(.object(claims.payload)).utf8))
        let signingInput = header + "." + payload
        return signingInput + "." + Base64URL.encode(HMACSHA256.mac(key: secret, message: Array(signingInput.utf8)))
    }

    private static func object(_ bytes: [UInt8], _ part: String) throws(JWTError) -> JSONObject {
        let value: JSONValue
        do throws(JSONParseError) {
            value = try JSONParser.parse(bytes)
        } catch {
            throw .malformed("\(part) is not JSON: \(error)")
        }
        guard let object = value.objectValue else { throw .malformed("\(part) is not a JSON object") }
        if let duplicate = object.firstDuplicateKey { throw .malformed("\(part) repeats \"\(duplicate)\"") }
        return object
    }
}
