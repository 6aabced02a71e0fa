extension Redactor {
    /// A target as a report, a console line or an error names it (`--server`, `postgres-init`):
    /// the password of a URL's userinfo, secret-named query values (`?password=…`) and, in a
    /// libpq key/value string (`host=db password=…`), secret-named values replaced. The one
    /// place a target URL is made safe to show.
    public static func target(_ target: String) -> String {
        let redactor = Redactor(policy: RedactionPolicy(), capacity: 16)
        if schemeEnd(Substring(target)) != nil { return redactor.url(target) }
        return target.split(separator: " ", omittingEmptySubsequences: false).map { word in
            word.contains("=") ? redactor.query(String(word)) : redactor.prose(String(word))
        }.joined(separator: " ")
    }
}
