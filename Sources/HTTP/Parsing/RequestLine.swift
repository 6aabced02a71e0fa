/// The request line: `method SP request-target SP HTTP-version`, single spaces.
enum RequestLine {
    static func parse(_ line: ArraySlice<UInt8>) throws(HTTPError) -> (method: String, target: String, version: HTTPVersion) {
        let parts = line.split(separator: ByteClass.space, maxSplits: 2, omittingEmptySubsequences: false)
        guard parts.count == 3, !parts[0].isEmpty, !parts[1].isEmpty, !parts[2].isEmpty else {
            throw .badRequest("request line is not \"method target version\"")
        }
        guard parts[0].allSatisfy(ByteClass.isTokenChar) else { throw .badRequest("method is not a token") }
        guard parts[1].allSatisfy(ByteClass.isTargetChar) else { throw .badRequest("request target has a forbidden byte") }
        let method = String(decoding: parts[0], as: UTF8.self)
        let target = String(decoding: parts[1], as: UTF8.self)
        let lowered = target.lowercased()
        let originForm = target.hasPrefix("/")
        let absoluteForm = lowered.hasPrefix("http://") || lowered.hasPrefix("https://")
        let asteriskForm = target == "*" && method == "OPTIONS"
        guard originForm || absoluteForm || asteriskForm else { throw .badRequest("request target is not origin or absolute form") }
        return (method, target, try version(parts[2]))
    }

    private static func version(_ bytes: ArraySlice<UInt8>) throws(HTTPError) -> HTTPVersion {
        let text = String(decoding: bytes, as: UTF8.self)
        if text == "HTTP/1.1" { return .http11 }
        if text == "HTTP/1.0" { return .http10 }
        let utf8 = Array(bytes)
        if utf8.count == 8, text.hasPrefix("HTTP/"), ByteClass.isDigit(utf8[5]), utf8[6] == UInt8(ascii: "."),
            ByteClass.isDigit(utf8[7])
        {
            throw .versionNotSupported("\(text) is not supported")
        }
        throw .badRequest("malformed HTTP version")
    }
}
