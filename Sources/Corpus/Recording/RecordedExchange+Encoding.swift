import JSON

extension RecordedExchange {
    /// The exchange line's bytes without its `exchange` member (which the writer puts first):
    /// the same bytes as `json` written compactly with keys in their order, with either body
    /// given already encoded so that a large body is not parsed into a tree and written again.
    /// - Parameters:
    ///   - request: the request body's compact JSON, or nil to encode `request`.
    ///   - response: the response body's compact JSON, or nil to encode `response`.
    /// - Returns: a compact JSON object, `{` first.
    public func encodedMembers(request encodedRequest: [UInt8]? = nil, response encodedResponse: [UInt8]? = nil) -> [UInt8] {
        Array(encodedPieces(request: encodedRequest, response: encodedResponse).joined())
    }

    /// `encodedMembers(request:response:)` in pieces whose concatenation is the object: the
    /// bodies given stay pieces of their own, so a large body is never copied into a line.
    /// - Parameters:
    ///   - encodedRequest: the request body's compact JSON, or nil to encode `request`.
    ///   - encodedResponse: the response body's compact JSON, or nil to encode `response`.
    /// - Returns: the pieces, the first starting with `{`.
    public func encodedPieces(request encodedRequest: [UInt8]? = nil, response encodedResponse: [UInt8]? = nil) -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        pieces.reserveCapacity(5)
        var out: [UInt8] = []
        out.reserveCapacity(512)
        func literal(_ text: StaticString) {
            text.withUTF8Buffer { out.append(contentsOf: $0) }
        }
        func optional(_ text: String?) {
            if let text { CanonicalJSON.appendString(text, to: &out) } else { literal("null") }
        }
        /// A body given encoded stays a piece of its own; otherwise its tree is written here.
        func body(_ encoded: [UInt8]?, else tree: JSONValue) {
            guard let encoded else { return CanonicalJSON.writeCompact(tree, into: &out, sortingKeys: false) }
            pieces.append(out)
            pieces.append(encoded)
            out = []
            out.reserveCapacity(64)
        }
        literal(#"{"at_ms":"#)
        Self.appendMilliseconds(atMilliseconds, to: &out)
        literal(#","duration_ms":"#)
        Self.appendMilliseconds(durationMilliseconds, to: &out)
        literal(#","http":{"method":"#)
        CanonicalJSON.appendString(method, to: &out)
        literal(#","path":"#)
        CanonicalJSON.appendString(path, to: &out)
        literal(#","request_headers":"#)
        CanonicalJSON.writeCompact(.object(requestHeaders), into: &out, sortingKeys: false)
        literal(#","response_headers":"#)
        CanonicalJSON.writeCompact(.object(responseHeaders), into: &out, sortingKeys: false)
        literal(#","status":"#)
        out.append(contentsOf: String(status).utf8)
        literal(#"},"identity":{"client":"#)
        optional(client)
        literal(#","user":"#)
        optional(user)
        literal("}")
        if let lineMilliseconds {
            literal(#","line_ms":["#)
            for (index, milliseconds) in lineMilliseconds.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                Self.appendMilliseconds(milliseconds, to: &out)
            }
            out.append(UInt8(ascii: "]"))
        }
        literal(#","request":"#)
        body(encodedRequest, else: request)
        literal(#","response":"#)
        body(encodedResponse, else: response)
        literal(#","rpc":"#)
        CanonicalJSON.appendString(rpc, to: &out)
        out.append(UInt8(ascii: "}"))
        pieces.append(out)
        return pieces
    }
}
