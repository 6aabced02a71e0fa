/// A JWT read without verifying it (a recorder, a HAR file or a mock sees tokens it holds no key
/// for): its claims are the JSON object of its second part. A token is three dot-separated parts;
/// its payload is base64url, and padding or the standard alphabet, which some tools write, are
/// read too. Both wires read their credentials' claims here.
public enum UnverifiedJWT {
    /// The claims of `jwt` (without its scheme), or nil when it is not a JWT with a JSON object payload.
    public static func claims(_ jwt: some StringProtocol) -> JSONObject? {
        let parts = jwt.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 3 else { return nil }
        var payload = String(parts[1])
        while payload.hasSuffix("=") { payload.removeLast() }
        payload = String(payload.map { $0 == "+" ? "-" : $0 == "/" ? "_" : $0 })
        guard let bytes = Base64URL.decode(payload), let claims = try? JSONParser.parse(bytes) else { return nil }
        return claims.objectValue
    }
}
