/// One end of a TCP connection: a numeric IP address and a port.
public struct HTTPEndpoint: Sendable, Hashable, CustomStringConvertible {
    /// The numeric address, e.g. "127.0.0.1" or "::1".
    public var host: String
    /// The port.
    public var port: UInt16

    /// Makes an endpoint.
    public init(host: String, port: UInt16) {
        self.host = host
        self.port = port
    }

    /// Reads a `--listen` value: `HOST:PORT` or `[IPv6]:PORT`, the host numeric or "localhost".
    public init?(listen text: String) {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]"), text[text.index(after: close)...].hasPrefix(":") else { return nil }
            host = text[text.index(after: text.startIndex)..<close]
            portText = text[text.index(close, offsetBy: 2)...]
        } else {
            guard let colon = text.lastIndex(of: ":"), !text[..<colon].contains(":") else { return nil }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
        }
        guard !host.isEmpty, !portText.isEmpty, portText.allSatisfy(\.isWholeNumber), portText.allSatisfy(\.isASCII),
            let port = UInt16(portText)
        else { return nil }
        self.init(host: String(host), port: port)
    }

    /// True for an address only this machine can reach: 127.0.0.0/8 or ::1.
    public var isLoopback: Bool { Self.isLoopback(host) }

    /// True when a numeric address is a loopback address (127.0.0.0/8, ::1, or "localhost").
    /// - Parameter host: the address.
    /// - Returns: whether it is loopback.
    public static func isLoopback(_ host: String) -> Bool {
        if host == "localhost" || host == "::1" || host == "0:0:0:0:0:0:0:1" { return true }
        let parts = host.split(separator: ".", omittingEmptySubsequences: false)
        guard parts.count == 4, parts.allSatisfy({ UInt8($0) != nil }) else { return false }
        return parts[0] == "127"
    }

    /// `host:port`, with brackets around an IPv6 address.
    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}
