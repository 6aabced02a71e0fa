extension CaseResult {
    /// The JUnit classname that names one case of one lane: `kizuna.<lane>.<case id>` (for a
    /// PowerSync case, whose id is `powersync/<NNN>-<slug>`: `powersync.<lane>.<NNN>-<slug>`), with the
    /// case id's `/` as package separators and `@<variant>` where one case is played several
    /// times in the lane (a kill point). For example `kizuna.server.push.002-rls-denied-not-a-wedge`
    /// or `kizuna.kill.push.001-insert-applied@after-push-sent`.
    ///
    /// Dots inside a segment would split it into packages, so they become `_`, and a recording's
    /// `.jsonl` extension is dropped; whitespace becomes `-`. The result depends only on its
    /// arguments, so it is stable across runs.
    /// - Parameters:
    ///   - lane: the lane, e.g. `check`, `server`, `client`, `kill`, `diff`.
    ///   - caseID: the case id (`push/001-insert-applied`) or a recording's file name.
    ///   - variant: what tells apart several plays of one case in the lane, e.g. a kill point.
    /// - Returns: the classname.
    public static func classname(lane: String, caseID: String, variant: String? = nil) -> String {
        var id = Substring(caseID)
        if id.hasSuffix(".jsonl") { id = id.dropLast(".jsonl".count) }
        var segments = id.split(separator: "/", omittingEmptySubsequences: true).map(segment)
        var profile = "kizuna"
        if segments.count > 1, segments[0] == "powersync" {
            profile = segments.removeFirst()
        }
        var name = ([profile, segment(Substring(lane))] + segments).joined(separator: ".")
        if let variant { name += "@" + segment(Substring(variant)) }
        return name
    }

    private static func segment(_ text: Substring) -> String {
        String(
            text.map { character -> Character in
                if character == "." { return "_" }
                return character.isWhitespace ? "-" : character
            })
    }
}
