extension Redactor {
    /// A target as a report, a console line or an error names it (`--server`, `postgres-init`):
    /// the password of a URL's userinfo, secret-named query values (`?password=…`) and, in a
    /// libpq key/value string (`host=db password=…`), secret-named values replaced. A user name
    /// alone (`postgres://accord@db/app`) names an account and stays. The one place a target URL
    /// is made safe to show.
    public static func target(_ target: String) -> String {
        let redactor = Redactor(policy: RedactionPolicy(), capacity: 16)
        guard let scheme = schemeEnd(Substring(target)) else {
            return target.split(separator: " ", omittingEmptySubsequences: false).map { word in
                word.contains("=") ? redactor.query(String(word)) : redactor.text(String(word))
            }.joined(separator: " ")
        }
        return redactor.shown(url: target, scheme: scheme)
    }

    /// A URL as `url(_:)` redacts it, but for a user name alone in the userinfo, which stays.
    private func shown(url target: String, scheme: Range<Substring.Index>) -> String {
        let rest = target[scheme.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" || $0 == "#" } ?? rest.endIndex
        if let at = rest[..<authorityEnd].lastIndex(of: "@"), !rest[..<at].contains(":") {
            let user = rest[...at]
            let shown = url(String(target[..<scheme.upperBound] + rest[rest.index(after: at)...]))
            return String(shown[..<scheme.upperBound]) + user + shown[scheme.upperBound...]
        }
        return url(target)
    }

    /// An error or console message: secrets found in its text (a JWT, a secret-named pair) and,
    /// in each word that is a URL with a scheme, what `url(_:)` replaces. File paths stay as they
    /// are, however random their names: a message must name the file it is about.
    public func message(_ message: String) -> String {
        let texted = text(message)
        guard texted.contains("://") else { return texted }
        var out = ""
        for (index, word) in texted.split(separator: " ", omittingEmptySubsequences: false).enumerated() {
            if index > 0 { out += " " }
            guard word.contains("://") else {
                out += word
                continue
            }
            var core = word
            var trailing = ""
            while let last = core.last, ":,;.)\"'".contains(last) {
                trailing.insert(last, at: trailing.startIndex)
                core.removeLast()
            }
            let leading = core.prefix { "(\"'".contains($0) }
            let candidate = String(core.dropFirst(leading.count))
            if let scheme = Self.schemeEnd(Substring(candidate)) {
                out += leading + shown(url: candidate, scheme: scheme) + trailing
            } else {
                out += leading + candidate + trailing
            }
        }
        return out
    }
}
