import Foundation
import HTTP
import JSON

extension OptionKey {
    static let secret = OptionKey("secret")
    static let sub = OptionKey("sub")
    static let session = OptionKey("session")
    static let role = OptionKey("role")
    static let expiresIn = OptionKey("expires-in")
}

/// `accord jwt`: mints an HS256 token with the claims `accord serve` and PostgREST (a local
/// Supabase project) read, so an app can be pointed at `accord serve` or `accord record` in one line.
enum JWTCommand: Command {
    static let spec = CommandSpec(
        name: "jwt",
        abstract: "Mint an HS256 JWT for 'accord serve' or a local Supabase project.",
        discussion: """
            Prints one compact JWT on stdout, signed with --secret or $ACCORD_JWT_SECRET (the secret is
            never printed). Claims: sub (--sub, the user id), role (--role, default authenticated), session_id
            (--session, the client id; 'accord serve' reads it as the client) and exp (now + --expires-in,
            default 1h). The keys are sorted and the JSON compact, so the same claims give the same token.
            --expires-in takes seconds or a number with s, m, h or d (30s, 15m, 1h, 7d), negative for a
            token that has already expired, or 'never' for no exp claim.
            Exit status: 0, or 64 for a missing secret or sub or an unreadable --expires-in.
            """,
        arguments: [],
        options: [
            OptionSpec(.secret, value: "secret", help: "The HS256 secret (default: $ACCORD_JWT_SECRET)."),
            OptionSpec(.sub, value: "user", help: "The sub claim: the user id (required)."),
            OptionSpec(.session, value: "id", help: "The session_id claim: the client id (default: none)."),
            OptionSpec(.role, value: "role", help: "The role claim (default: authenticated)."),
            OptionSpec(.expiresIn, value: "duration", help: "Lifetime: 30s, 15m, 1h, 7d, -1s or never (default 1h)."),
        ])

    static func run(_ arguments: ParsedArguments, console: Console) throws -> Int32 {
        try run(arguments, console: console, now: Date())
    }

    /// Mints the token as of `now`.
    static func run(_ arguments: ParsedArguments, console: Console, now: Date) throws(UsageError) -> Int32 {
        guard let secret = arguments.value(.secret) ?? ProcessInfo.processInfo.environment["ACCORD_JWT_SECRET"], !secret.isEmpty
        else {
            throw UsageError("no JWT secret: pass --secret or set ACCORD_JWT_SECRET", command: spec.name)
        }
        guard let subject = arguments.value(.sub), !subject.isEmpty else {
            throw UsageError("--sub is required: the user id the token is for", command: spec.name)
        }
        let lifetime = try arguments.value(.expiresIn, as: Lifetime.conversion) ?? .seconds(3600)
        var extra = JSONObject()
        if let role = arguments.value(.role) {
            guard !role.isEmpty else { throw UsageError("--role is empty", command: spec.name) }
            extra = ["role": .string(role)]
        }
        let expiresAt = lifetime.expiry(from: now)
        let claims = JWTClaims(subject: subject, sessionID: arguments.value(.session), expiresAt: expiresAt, extra: extra)
        console.out(JWTKey(secret: secret).mint(claims))
        return ExitCode.success
    }

    /// How long a token lives: `exp` = now + seconds (negative: already expired), or no `exp`.
    enum Lifetime: Equatable, Sendable {
        case seconds(Int)
        case never

        /// `--expires-in`'s typed conversion.
        static let conversion = OptionConversion(expected: "30s, 15m, 1h, 7d, a negative one or never") { Lifetime($0) }

        /// Reads `never`, or an optionally negative count of seconds with an optional unit
        /// (s, m, h, d); nil for anything else.
        init?(_ text: String) {
            if text == "never" {
                self = .never
                return
            }
            let units: [Character: Int] = ["s": 1, "m": 60, "h": 3600, "d": 86400]
            var digits = Substring(text)
            var scale = 1
            if let last = digits.last, let unit = units[last] {
                scale = unit
                digits = digits.dropLast()
            }
            let negative = digits.hasPrefix("-")
            if negative { digits = digits.dropFirst() }
            guard !digits.isEmpty, digits.count <= 9, digits.allSatisfy({ $0.isASCII && $0.isNumber }), let count = Int(digits) else {
                return nil
            }
            self = .seconds((negative ? -1 : 1) * count * scale)
        }

        /// The `exp` claim for a token minted at `now`, in whole seconds since 1970.
        func expiry(from now: Date) -> Int? {
            guard case .seconds(let seconds) = self else { return nil }
            return Int(now.timeIntervalSince1970.rounded(.down)) + seconds
        }
    }
}
