/// The one encoder of a response head, for whole responses (`HTTPResponse.serialized`),
/// streamed ones (`HTTPResponseStream`) and the answers the recorder relays. Its header policy,
/// stated once:
/// - The framing and the connection's fate are the encoder's: `Content-Length`,
///   `Transfer-Encoding`, `Connection` and `Keep-Alive` given with the head are dropped, and
///   written from the body's framing and the keep-alive decision (`Connection: close` when the
///   connection closes, `Connection: keep-alive` when an HTTP/1.0 one stays open).
/// - An answer made here (`Identity.accord`) carries the server's `Date` and `Server: accord`,
///   any given ones dropped; an answer made elsewhere (`Identity.given`: a streaming handler, an
///   upstream's answer) keeps its own, with a `Date` added when it has none.
/// - Control bytes in names, values and the reason phrase become spaces, so that no field can
///   split the response.
/// - A relay drops the hop-by-hop fields (`HTTPHeaders.hopByHop`, and those its `Connection`
///   names) before the head gets here; see `HTTPHeaders.forwardable`.
public struct HTTPResponseHead: Sendable, Hashable {
    /// Whose `Date` and `Server` the head carries.
    public enum Identity: Sendable, Hashable {
        /// The server's: `Date: date` and `Server: accord`.
        case accord(date: String)
        /// The ones given, a `Date` of now added when none is.
        case given
    }

    /// How the body after the head is delimited.
    public enum BodyFraming: Sendable, Hashable {
        /// No body, and no length said (a bodyless status, or HEAD without a known length).
        case none
        /// `Content-Length` of this many bytes.
        case length(Int)
        /// `Transfer-Encoding: chunked`.
        case chunked
        /// Delimited by closing the connection (an HTTP/1.0 peer, length unknown).
        case close
    }

    /// The status code.
    public var status: Int
    /// The reason phrase, or nil for the standard one.
    public var reason: String?
    /// The header fields given, in order.
    public var headers: HTTPHeaders

    /// Makes a head.
    public init(status: Int, reason: String? = nil, headers: HTTPHeaders) {
        self.status = status
        self.reason = reason
        self.headers = headers
    }

    /// Whether a status never has a body (1xx, 204, 304).
    /// - Returns: true for a bodyless status.
    public static func isBodyless(_ status: Int) -> Bool { status == 204 || status == 304 || (100..<200).contains(status) }

    /// How a body is framed: none for a bodyless status, its length when known, none for HEAD
    /// without one, chunked to an HTTP/1.1 peer, else to the close.
    /// - Parameters:
    ///   - contentLength: the body's length when known.
    ///   - version: the request's version.
    ///   - omitBody: whether the request was HEAD.
    /// - Returns: the framing.
    public func framing(contentLength: Int?, version: HTTPVersion, omitBody: Bool) -> BodyFraming {
        if Self.isBodyless(status) { return .none }
        if let contentLength { return .length(contentLength) }
        if omitBody { return .none }
        return version == .http11 ? .chunked : .close
    }

    /// The head's bytes, blank line included.
    /// - Parameters:
    ///   - version: the request's version.
    ///   - framing: how the body is delimited (`framing(contentLength:version:omitBody:)`).
    ///   - keepAlive: whether the connection stays open (ignored, closing, for `.close` framing).
    ///   - identity: whose `Date` and `Server` the head carries.
    /// - Returns: the bytes.
    public func encoded(version: HTTPVersion, framing: BodyFraming, keepAlive: Bool, identity: Identity) -> [UInt8] {
        var head: [UInt8] = []
        head.reserveCapacity(256)
        func add(_ text: String) { head.append(contentsOf: text.utf8) }
        add(version.rawValue)
        add(" ")
        add(String(status))
        add(" ")
        add(reason.map(Self.clean) ?? HTTPResponse.reasonPhrase(status))
        add("\r\n")
        var dated = false
        for field in headers where !Self.owned(field.name, identity) {
            if !dated && HTTPHeaders.sameName(field.name, "Date") { dated = true }
            add(Self.clean(field.name))
            add(": ")
            if let octets = field.octets {
                // Sent on as received; control bytes become spaces, as in `clean`.
                head.append(contentsOf: octets.lazy.map { $0 < 0x20 || $0 == 0x7F ? 0x20 : $0 })
            } else {
                add(Self.clean(field.value))
            }
            add("\r\n")
        }
        switch identity {
        // Pieces appended one by one, not interpolated: a line over 15 bytes would be a string
        // allocated for each response only to be copied into the head.
        case .accord(let date):
            add("Date: ")
            add(date)
            add("\r\nServer: accord\r\n")
        case .given where !dated:
            add("Date: ")
            add(HTTPDate.now())
            add("\r\n")
        case .given: break
        }
        var closes = !keepAlive
        switch framing {
        case .none: break
        case .length(let length):
            add("Content-Length: ")
            add(String(length))
            add("\r\n")
        case .chunked: add("Transfer-Encoding: chunked\r\n")
        case .close: closes = true
        }
        if closes {
            add("Connection: close\r\n")
        } else if version == .http10 {
            add("Connection: keep-alive\r\n")
        }
        add("\r\n")
        return head
    }

    /// Fields the encoder writes itself, so a given one is dropped.
    private static func owned(_ name: String, _ identity: Identity) -> Bool {
        if framingFields.contains(where: { HTTPHeaders.sameName($0, name) }) { return true }
        guard case .accord = identity else { return false }
        return HTTPHeaders.sameName(name, "Date") || HTTPHeaders.sameName(name, "Server")
    }

    private static let framingFields = ["Content-Length", "Transfer-Encoding", "Connection", "Keep-Alive"]

    /// Replaces CR, LF and other control bytes so a header cannot be split.
    static func clean(_ text: String) -> String {
        guard text.utf8.contains(where: { $0 < 0x20 || $0 == 0x7F }) else { return text }
        return String(String.UnicodeScalarView(text.unicodeScalars.map { $0.value < 0x20 || $0.value == 0x7F ? " " : $0 }))
    }
}
