import KizunaWire

extension RPCReply {
    /// The reply PostgREST gives when the SQL behind an RPC raises: the HTTP status its error
    /// mapping assigns to the SQLSTATE, and the error object `{code, details, hint, message}`
    /// with PostgreSQL's own fields.
    /// - Parameters:
    ///   - sqlState: the SQLSTATE, e.g. "22023" or a pack's own "KZP01".
    ///   - message: PostgreSQL's primary message.
    ///   - details: its detail, if any.
    ///   - hint: its hint, if any.
    ///   - authenticated: whether the request carried a JWT (42501 is 403 then, 401 otherwise).
    /// - Returns: the reply.
    public static func sqlError(sqlState: String, message: String, details: String?, hint: String?, authenticated: Bool = true)
        -> RPCReply
    {
        RPCReply(
            status: postgRESTStatus(sqlState: sqlState, authenticated: authenticated),
            body: PostgRESTSurface.errorBody(code: sqlState, message: message, details: details, hint: hint))
    }

    /// PostgREST's HTTP status for a SQLSTATE (docs.postgrest.org, "Errors": HTTP status codes).
    /// - Parameters:
    ///   - sqlState: the five-character SQLSTATE.
    ///   - authenticated: whether the request carried a JWT.
    /// - Returns: the status.
    public static func postgRESTStatus(sqlState: String, authenticated: Bool = true) -> Int {
        switch sqlState {
        case "23503", "23505": return 409
        case "25006": return 405
        case "53400": return 500
        case "P0001": return 400
        case "42883", "42P01": return 404
        case "42P17": return 500
        case "42501": return authenticated ? 403 : 401
        default: break
        }
        switch sqlState.prefix(2) {
        case "08", "53": return 503
        case "0L", "0P", "28": return 403
        case "09", "25", "2D", "38", "39", "3B", "40", "54", "55", "57", "58", "F0", "HV", "P0", "XX": return 500
        case "PT":
            // PostgREST's custom status: `PT` followed by the status digits, e.g. PT402.
            guard let status = Int(sqlState.dropFirst(2)), (100...599).contains(status) else { return 500 }
            return status
        default: return 400
        }
    }
}
