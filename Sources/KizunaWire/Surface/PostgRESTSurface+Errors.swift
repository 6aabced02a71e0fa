import JSON

extension PostgRESTSurface {
    /// PostgREST's error object `{code, details, hint, message}`, as every PostgREST-shaped error
    /// Accord answers or relays carries it (the router's refusals, SQL errors, the mock's and the
    /// proxy's own failures).
    /// - Parameters:
    ///   - code: the SQLSTATE, PostgREST (`PGRST…`) or Accord code.
    ///   - message: the message.
    ///   - details: the details, or nil (JSON null).
    ///   - hint: the hint, or nil (JSON null).
    /// - Returns: the object.
    public static func errorBody(code: String, message: String, details: String? = nil, hint: String? = nil) -> JSONValue {
        [
            "code": .string(code), "details": details.map { .string($0) } ?? .null, "hint": hint.map { .string($0) } ?? .null,
            "message": .string(message),
        ]
    }
}
