/// The request line: `method SP request-target SP HTTP-version`, single spaces.
enum RequestLine {
    static func parse(_ line: ArraySlice<UInt8>) throws(HTTPError) -> (method: String, target: String, version: HTTPVersion) {
        // Split at the first two spaces; the version part keeps any further ones (and is then
        // refused as malformed).
        guard let first = line.firstIndex(of: ByteClass.space), let second = line[(first + 1)...].firstIndex(of: ByteClass.space)
        else { throw .badRequest("request line is not \"method target version\"") }
        let methodBytes = line[..<first]
        let targetBytes = line[(first + 1)..<second]
        let versionBytes = line[(second + 1)...]
        guard !methodBytes.isEmpty, !targetBytes.isEmpty, !versionBytes.isEmpty else {
            throw .badRequest("request line is not \"method target version\"")
        }
        guard methodBytes.allSatisfy(ByteClass.isTokenChar) else { throw .badRequest("method is not a token") }
        guard targetBytes.allSatisfy(ByteClass.isTargetChar) else { throw .badRequest("request target has a forbidden byte") }
        let method = String(decoding: methodBytes, as: UTF8.self)
        let originForm = targetBytes.first == UInt8(ascii: "/")
        let absoluteForm = !originForm && (hasPrefix(targetBytes, "http://") || hasPrefix(targetBytes, "https://"))
        let asteriskForm = targetBytes.elementsEqual("*".utf8) && method == "OPTIONS"
        guard originForm || absoluteForm || asteriskForm else { throw .badRequest("request target is not origin or absolute form") }
        return (method, String(decoding: targetBytes, as: UTF8.self), try version(versionBytes))
    }

    /// Whether `bytes` start with `prefix`, ASCII letters compared without case.
    private static func hasPrefix(_ bytes: ArraySlice<UInt8>, _ prefix: StaticString) -> Bool {
        guard bytes.count >= prefix.utf8CodeUnitCount else { return false }
        return prefix.withUTF8Buffer { expected in
            zip(bytes, expected).allSatisfy { HTTPHeaders.lowerASCII($0) == $1 }
        }
    }

    private static func version(_ bytes: ArraySlice<UInt8>) throws(HTTPError) -> HTTPVersion {
        if bytes.elementsEqual("HTTP/1.1".utf8) { return .http11 }
        if bytes.elementsEqual("HTTP/1.0".utf8) { return .http10 }
        let text = String(decoding: bytes, as: UTF8.self)
        let utf8 = Array(bytes)
        if utf8.count == 8, text.hasPrefix("HTTP/"), ByteClass.isDigit(utf8[5]), utf8[6] == UInt8(ascii: "."),
            ByteClass.isDigit(utf8[7])
        {
            throw .versionNotSupported("\(text) is not supported")
        }
        throw .badRequest("malformed HTTP version")
    }
}
