/// Why a JWT was not accepted.
public struct JWTError: Error, CustomStringConvertible, Sendable, Hashable {
    private enum Code: Sendable, Hashable { case malformed, algorithm, signature, expired, notYetValid }
    private let code: Code
    /// What is wrong, in a sentence fragment.
    public let detail: String

    private init(_ code: Code, _ detail: String) {
        self.code = code
        self.detail = detail
    }

    /// The token is not three base64url JSON parts with the claims' types.
    /// - Returns: the error.
    public static func malformed(_ detail: String) -> JWTError { JWTError(.malformed, detail) }

    /// The header names an algorithm other than HS256.
    /// - Returns: the error.
    public static func algorithm(_ detail: String) -> JWTError { JWTError(.algorithm, detail) }

    /// The signature does not match the secret.
    /// - Returns: the error.
    public static func signature(_ detail: String) -> JWTError { JWTError(.signature, detail) }

    /// `exp` has passed.
    /// - Returns: the error.
    public static func expired(_ detail: String) -> JWTError { JWTError(.expired, detail) }

    /// `nbf` is still ahead.
    /// - Returns: the error.
    public static func notYetValid(_ detail: String) -> JWTError { JWTError(.notYetValid, detail) }

    /// True when the token was valid but has expired.
    public var isExpired: Bool { code == .expired }

    /// The detail, prefixed.
    public var description: String { "invalid JWT: \(detail)" }
}
