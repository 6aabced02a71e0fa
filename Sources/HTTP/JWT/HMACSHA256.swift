import COpenSSL

/// HMAC-SHA-256 and constant-time comparison through OpenSSL's libcrypto.
public enum HMACSHA256 {
    /// Computes HMAC-SHA-256.
    /// - Parameters:
    ///   - key: the secret key.
    ///   - message: the message.
    /// - Returns: the 32-byte MAC.
    public static func mac(key: [UInt8], message: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let keyBytes = key.isEmpty ? [0] : key
        keyBytes.withUnsafeBytes { keyRaw in
            message.withUnsafeBufferPointer { messageRaw in
                out.withUnsafeMutableBufferPointer { outRaw in
                    _ = HMAC(
                        EVP_sha256(), keyRaw.baseAddress, Int32(key.count), messageRaw.baseAddress, messageRaw.count,
                        outRaw.baseAddress, &length)
                }
            }
        }
        return Array(out.prefix(Int(length)))
    }

    /// Compares two byte strings in time that depends only on their length (CRYPTO_memcmp).
    /// - Parameters:
    ///   - lhs: one byte string.
    ///   - rhs: another.
    /// - Returns: whether they are equal.
    public static func constantTimeEqual(_ lhs: [UInt8], _ rhs: [UInt8]) -> Bool {
        guard lhs.count == rhs.count else { return false }
        if lhs.isEmpty { return true }
        return lhs.withUnsafeBytes { left in
            rhs.withUnsafeBytes { right in CRYPTO_memcmp(left.baseAddress, right.baseAddress, lhs.count) == 0 }
        }
    }
}
