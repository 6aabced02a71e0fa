/// Who may call the fixture endpoint: a program on this machine, not a web page. A page can
/// make a browser send a "simple" cross-origin POST (a text/plain body, no preflight), and a
/// DNS-rebinding page can reach a loopback port under its own host name; either could reseed
/// the server under test. So a fixture request is answered only when its `Host` is a loopback
/// name (127.0.0.0/8, localhost, [::1], with or without a port), any `Origin` is a loopback
/// origin, and a POST's body is `application/json` (which a page cannot send without a
/// preflight the endpoint never grants). Anything else is 403 and changes nothing. One guard for
/// every profile's fixture endpoint; each answers the refusal in its own error shape.
public enum FixtureAccess {
    /// Why the endpoint must not act on `request` (to answer 403 with), or nil when it may.
    public static func refusal(_ request: HTTPRequest) -> String? {
        let hosts = request.headers.values(for: "Host")
        guard hosts.count == 1, let host = hosts.first, isLoopback(authority: host) else {
            return
                "the fixture endpoint answers only a loopback Host (127.0.0.1, localhost or [::1]), found \(hosts.first.map { "'\($0)'" } ?? "none")"
        }
        let origins = request.headers.values(for: "Origin")
        if origins.count > 1 { return "the fixture endpoint answers only one Origin" }
        if let origin = origins.first, !isLoopback(origin: origin) {
            return "the fixture endpoint answers no cross-origin request, found Origin '\(origin)'"
        }
        if request.method == "POST" {
            let types = request.headers.values(for: "Content-Type")
            let mediaType = types.first?.split(separator: ";", maxSplits: 1).first?.trimmingCharacters(in: .whitespaces).lowercased()
            guard types.count == 1, mediaType == "application/json" else {
                return "a fixture request body must be application/json, found \(types.first.map { "'\($0)'" } ?? "none")"
            }
        }
        return nil
    }

    /// Whether `host[:port]` names this machine: 127.0.0.0/8, localhost or [::1].
    /// - Parameter authority: a `Host` value.
    /// - Returns: whether it is loopback.
    static func isLoopback(authority: String) -> Bool {
        var host = Substring(authority)
        if host.hasPrefix("[") {
            guard let close = host.firstIndex(of: "]") else { return false }
            let rest = host[host.index(after: close)...]
            guard rest.isEmpty || isPort(rest) else { return false }
            host = host[host.index(after: host.startIndex)..<close]
            return host == "::1" || host == "0:0:0:0:0:0:0:1"
        }
        if let colon = host.firstIndex(of: ":") {
            guard isPort(host[colon...]) else { return false }
            host = host[..<colon]
        }
        let name = host.lowercased()
        return name != "::1" && HTTPEndpoint.isLoopback(name.hasSuffix(".") ? String(name.dropLast()) : name)
    }

    /// Whether an `Origin` (`scheme://host[:port]`) is a page served from this machine.
    /// - Parameter origin: the `Origin` value ("null" is an opaque origin: not loopback).
    /// - Returns: whether its host is loopback.
    static func isLoopback(origin: String) -> Bool {
        let lower = origin.lowercased()
        for scheme in ["http://", "https://"] where lower.hasPrefix(scheme) {
            let authority = lower.dropFirst(scheme.count)
            guard !authority.isEmpty, !authority.contains("/"), !authority.contains("@") else { return false }
            return isLoopback(authority: String(authority))
        }
        return false
    }

    /// ":digits", a port of at most five digits.
    private static func isPort(_ text: Substring) -> Bool {
        let digits = text.dropFirst()
        return text.first == ":" && !digits.isEmpty && digits.count <= 5 && digits.utf8.allSatisfy { $0 >= 0x30 && $0 <= 0x39 }
    }
}
