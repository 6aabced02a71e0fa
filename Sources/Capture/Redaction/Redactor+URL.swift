/// URLs as recorded: request targets, `Location`-like headers and URLs inside query values.
/// A URL carries secrets in five places: the userinfo (`user:pass@`), path segments shaped like
/// a credential (a JWT, an opaque token), path parameters (`;token=…`), the query, and the
/// fragment (`#access_token=…`, as OAuth's implicit flow answers). Names are read decoded (see
/// `RedactionPolicy.isSecret(utf8:)`) and values are searched decoded, so percent-encoding
/// hides nothing; what is replaced is written back encoded, the placeholders as they are.
extension Redactor {
    /// A URL or request target as recorded.
    /// - Parameter url: an absolute URL (`https://host/p?q#f`) or a target (`/p?q`).
    /// - Returns: the URL with its secrets replaced.
    public func url(_ url: String) -> String {
        var rest = Substring(url)
        var out = ""
        if let scheme = Self.schemeEnd(rest) {
            out += rest[..<scheme.upperBound]
            rest = rest[scheme.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
            out += authority(rest[..<authorityEnd])
            rest = rest[authorityEnd...]
        }
        var fragment: Substring?
        if let hash = rest.firstIndex(of: "#") {
            fragment = rest[rest.index(after: hash)...]
            rest = rest[..<hash]
        }
        if let question = rest.firstIndex(of: "?") {
            out += path(rest[..<question]) + "?" + query(String(rest[rest.index(after: question)...]))
        } else {
            out += path(rest)
        }
        if let fragment { out += "#" + query(String(fragment)) }
        return out
    }

    /// A query string (or a fragment of `name=value` pairs) as recorded: values of secret-named
    /// parameters replaced whole, other values searched for secrets after decoding.
    /// - Parameter query: the text after `?`.
    /// - Returns: the query to record.
    public func query(_ query: String) -> String {
        query.split(separator: "&", omittingEmptySubsequences: false).map(pair).joined(separator: "&")
    }

    /// A path as recorded: each segment and each of its `;` parameters on its own.
    /// - Parameter path: the path, without query or fragment.
    /// - Returns: the path to record.
    public func path(_ path: Substring) -> String {
        path.split(separator: "/", omittingEmptySubsequences: false).map { segment -> String in
            var pieces = segment.split(separator: ";", omittingEmptySubsequences: false)
            let proper = pieces.removeFirst()
            return ([self.segment(proper)] + pieces.map(pair)).joined(separator: ";")
        }.joined(separator: "/")
    }

    /// `name=value` as recorded: a kept name as it is, a secret name's value replaced whole, any
    /// other value (or a bare word) searched for secrets.
    private func pair(_ part: Substring) -> String {
        guard let equals = part.firstIndex(of: "=") else { return searched(part) }
        let name = String(part[..<equals])
        let value = part[part.index(after: equals)...]
        if policy.isKept(name) { return String(part) }
        if policy.isSecret(name) {
            if value.isEmpty { return String(part) }
            return "\(name)=\(secret(PercentEncoding.decoded(value, depth: 1)))"
        }
        return "\(name)=\(searched(value))"
    }

    /// A path segment: replaced whole when, decoded, it is shaped like a credential; else
    /// searched like any other value.
    private func segment(_ segment: Substring) -> String {
        let decoded = PercentEncoding.decoded(segment, depth: 1)
        if CredentialShape.isCredential(decoded) { return secret(decoded) }
        return searched(segment)
    }

    /// A value that is not secret by name, decoded (up to three layers, for URLs inside URLs)
    /// and redacted as text; unchanged when nothing in it is secret.
    private func searched(_ value: Substring) -> String {
        let decoded = PercentEncoding.decoded(value, depth: 3)
        let redacted = text(decoded)
        if redacted == decoded { return String(value) }
        return decoded == value ? redacted : PercentEncoding.encoded(redacted)
    }

    /// The `://` after a URL's scheme (`ALPHA *( ALPHA / DIGIT / "+" / "-" / "." )`, RFC 3986
    /// §3.1) at its very start; nil for a target or relative URL, even one with `://` later in its
    /// query (`/cb?next=https://…`), whose whole text is then a path and a query.
    static func schemeEnd(_ text: Substring) -> Range<Substring.Index>? {
        guard let first = text.first, first.isASCII, first.isLetter, let separator = text.range(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound]
        guard scheme.allSatisfy({ $0.isASCII && ($0.isLetter || $0.isNumber || $0 == "+" || $0 == "-" || $0 == ".") }) else { return nil }
        return separator
    }

    /// `user:password@host`: the password replaced; a user name alone (`ghp_…@github.com`, a
    /// token standing in for credentials) replaced whole.
    private func authority(_ authority: Substring) -> String {
        guard let at = authority.lastIndex(of: "@") else { return String(authority) }
        // Redacted already (a message quoting a target that was shown safely): kept as it is.
        if Self.isPlaceholder(String(authority[..<at])) { return String(authority) }
        guard let colon = authority[..<at].firstIndex(of: ":") else {
            let user = authority[..<at]
            return user.isEmpty ? String(authority) : "\(secret(PercentEncoding.decoded(user, depth: 1)))\(authority[at...])"
        }
        let password = authority[authority.index(after: colon)..<at]
        if password.isEmpty { return String(authority) }
        return "\(authority[...colon])\(secret(PercentEncoding.decoded(password, depth: 1)))\(authority[at...])"
    }

    /// Header fields whose values are URLs: `Location`, `Content-Location`, `Referer`, and any
    /// field whose value starts with `http://` or `https://`.
    static func holdsURL(name: String, value: String) -> Bool {
        switch name.lowercased() {
        case "location", "content-location", "referer": return true
        default: return value.hasPrefix("http://") || value.hasPrefix("https://")
        }
    }
}

extension Redactor {
    /// Prose as reports print it (a case name, a failure message): secrets replaced as
    /// `text(_:)` does, and each word that is a URL or a path (`/…`, `…://…`) redacted as a URL,
    /// so a path copied from a recording written by hand keeps no credential-shaped segment.
    /// - Parameter prose: the text.
    /// - Returns: the text to print.
    public func prose(_ prose: String) -> String {
        let texted = text(prose)
        guard texted.contains("/") else { return texted }
        var out = ""
        var word = ""
        func flush() {
            guard word.hasPrefix("/") || word.contains("://") else {
                out += word
                word = ""
                return
            }
            // Punctuation that ends the sentence around a URL ("…/db: refused") is not the URL's.
            var trailing = ""
            while let last = word.last, ":,;.)".contains(last) {
                trailing.insert(last, at: trailing.startIndex)
                word.removeLast()
            }
            out += url(word) + trailing
            word = ""
        }
        for character in texted {
            if character == " " || character == "\n" || character == "\t" || character == "\"" || character == "'" {
                flush()
                out.append(character)
            } else {
                word.append(character)
            }
        }
        flush()
        return out
    }
}
