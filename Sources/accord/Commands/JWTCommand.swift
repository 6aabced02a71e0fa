import Foundation
import HTTP
import KizunaWire

/// `accord jwt`: mints an HS256 token with the claims `accord serve` and PostgREST (a local
/// Supabase project) read, so an app can be pointed at `accord serve` or `accord record` in one line.
enum JWTCommand {
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
            OptionSpec(long: "secret", valueName: "secret", help: "The HS256 secret (default: $ACCORD_JWT_SECRET)."),
            OptionSpec(long: "sub", valueName: "user", help: "The sub claim: the user id (required)."),
            OptionSpec(long: "session", valueName: "id", help: "The session_id claim: the client id (default: none)."),
            OptionSpec(long: "role", valueName: "role", help: "The role claim (default: authenticated)."),
            OptionSpec(long: "expires-in", valueName: "duration", help: "Lifetime: 30s, 15m, 1h, 7d, -1s or never (default 1h)."),
        ],
        usage: "--sub <user> [--session <id>] [--role <role>] [--expires-in <duration>] [--secret <secret>]")

    static func run(_ arguments: ParsedArguments, console: Console, now: Date = Date()) throws(UsageError) -> Int32 {
        guard let secret = arguments.values["secret"] ?? ProcessInfo.processInfo.environment["ACCORD_JWT_SECRET"], !secret.isEmpty
        else {
            throw UsageError("no JWT secret: pass --secret or set ACCORD_JWT_SECRET", command: spec.name)
        }
        guard let subject = arguments.values["sub"], !subject.isEmpty else {
            throw UsageError("--sub is required: the user id the token is for", command: spec.name)
        }
        let text = arguments.values["expires-in"] ?? "1h"
        guard let lifetime = Lifetime(text) else {
            throw UsageError("--expires-in takes 30s, 15m, 1h, 7d, a negative one or never, found '\(text)'", command: spec.name)
        }
        var extra = JSONObject()
        if let role = arguments.values["role"] {
            guard !role.isEmpty else { throw UsageError("--role is empty", command: spec.name) }
            extra = JSONObject([.init(key: "role", value: .string(role))])
        }
        let expiresAt = lifetime.expiry(from: now)
        let claims = JWTClaims(subject: subject, sessionID: arguments.values["session"], expiresAt: expiresAt, extra: extra)
        console.out(JWTKey(secret: secret).mint(claims))
        return ExitCode.success
    }

    /// How long a token lives: `exp` = now + seconds (negative: already expired), or no `exp`.
    enum Lifetime: Equatable {
        case seconds(Int)
        case never

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
