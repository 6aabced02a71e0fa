/// What a credential looks like when nothing names it, as a bare path segment: a JWT, or an
/// opaque token of at least 20 URL-safe characters that mixes upper case, lower case and digits
/// (as random base64url does), or of at least 32 that mixes letters and digits (hex keys).
/// UUIDs, which name rows in paths, are not credentials.
enum CredentialShape {
    /// The shortest opaque token recognized.
    static let shortest = 20
    /// From this length, letters and digits (without both cases) are enough.
    static let longHex = 32

    /// Whether a decoded path segment is shaped like a credential.
    static func isCredential(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        if bytes.count < shortest { return false }
        if bytes.withUnsafeBufferPointer({ Redactor.jwtRange(in: $0, from: 0) == 0..<$0.count }) { return true }
        if isUUID(bytes) { return false }
        var upper = false
        var lower = false
        var digit = false
        for byte in bytes {
            switch byte {
            case 0x41...0x5A: upper = true
            case 0x61...0x7A: lower = true
            case 0x30...0x39: digit = true
            case 0x2D, 0x2E, 0x5F, 0x7E: continue
            default: return false
            }
        }
        if upper && lower && digit { return true }
        return bytes.count >= longHex && digit && (upper || lower)
    }

    /// `8-4-4-4-12` hex digits.
    private static func isUUID(_ bytes: [UInt8]) -> Bool {
        guard bytes.count == 36 else { return false }
        for (index, byte) in bytes.enumerated() {
            if [8, 13, 18, 23].contains(index) {
                if byte != 0x2D { return false }
            } else if WireName.hexValue(byte) == nil {
                return false
            }
        }
        return true
    }
}
