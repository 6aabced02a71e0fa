import HTTP
import JSON
import KizunaWire
import ServerContract

/// The answers the PostgREST surface gives: RPC replies as JSON responses and PostgREST-shaped
/// error objects `{code, details, hint, message}`.
public enum PostgRESTReply {
    /// The JSON response for an RPC reply, with its status.
    /// - Returns: the response.
    public static func response(_ reply: RPCReply) -> HTTPResponse {
        var bytes: [UInt8] = []
        CanonicalJSON.writeCompact(reply.body, into: &bytes)
        return HTTPResponse(status: reply.status, headers: ["Content-Type": "application/json; charset=utf-8"], body: bytes)
    }

    /// A PostgREST-shaped error response.
    /// - Parameters:
    ///   - status: the HTTP status.
    ///   - code: the PostgREST or SQLSTATE code.
    ///   - message: the message.
    ///   - details: the details, or nil.
    /// - Returns: the response.
    public static func error(status: Int, code: String, _ message: String, details: String? = nil) -> HTTPResponse {
        response(RPCReply(status: status, body: PostgRESTSurface.errorBody(code: code, message: message, details: details)))
    }

    /// The PostgREST-shaped answer to a request the HTTP layer refused (`code` is `HTTP<status>`).
    /// - Parameter error: the refusal.
    /// - Returns: the response.
    public static func refusal(_ error: HTTPError) -> HTTPResponse {
        Self.error(status: error.status, code: "HTTP\(error.status)", error.detail)
    }

    /// The answer to a `TargetError`: 501 `ACF02` when unsupported, 503 `PGRST000` when
    /// unreachable, 409 `ACF01` when refused.
    /// - Parameter error: the target's error.
    /// - Returns: the response.
    public static func targetFailure(_ error: TargetError) -> HTTPResponse {
        if error.isUnsupported { return Self.error(status: 501, code: "ACF02", error.description) }
        if error.isUnreachable { return Self.error(status: 503, code: "PGRST000", error.description) }
        return Self.error(status: 409, code: "ACF01", error.description)
    }

    /// The 401 for a missing or refused JWT, with `WWW-Authenticate` as PostgREST sends it.
    /// - Parameters:
    ///   - code: PGRST301 (invalid or expired) or PGRST302 (none given).
    ///   - message: the message.
    /// - Returns: the response.
    public static func unauthorized(code: String, _ message: String) -> HTTPResponse {
        var response = error(status: 401, code: code, message)
        let challenge = code == "PGRST302" ? "Bearer" : "Bearer error=\"invalid_token\", error_description=\"\(message)\""
        response.headers.add("WWW-Authenticate", challenge)
        return response
    }
}
