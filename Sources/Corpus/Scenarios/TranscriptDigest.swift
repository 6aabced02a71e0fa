import COpenSSL
import JSON

/// The identity of a transcript that scenario setup is written for: the SHA-256, in lowercase
/// hex, of its canonical JSON. For a corpus file that is already canonical (upstream's are) it
/// equals `sha256sum` of the file, so a team can check which version a setup names.
public enum TranscriptDigest {
    /// The digest of a parsed transcript.
    public static func of(_ json: JSONValue) -> String {
        hex(sha256(CanonicalJSON.render(json)))
    }

    static func sha256(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        bytes.withUnsafeBufferPointer { input in
            out.withUnsafeMutableBufferPointer { output in
                _ = EVP_Digest(input.baseAddress, input.count, output.baseAddress, &length, EVP_sha256(), nil)
            }
        }
        return Array(out.prefix(Int(length)))
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef")
        var text = ""
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0f)])
        }
        return text
    }
}
