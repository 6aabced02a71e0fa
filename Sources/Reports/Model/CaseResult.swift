import JSON

/// One test case: a step, a postcondition, or a file-level check.
public struct CaseResult: Sendable, Hashable {
    /// What the system under test actually sent or answered at the case's step, for the
    /// sequence picture to draw in place of the golden exchange.
    public struct Observed: Sendable, Hashable {
        /// An HTTP answer: its status and body.
        public struct Answer: Sendable, Hashable {
            /// The HTTP status.
            public var status: Int
            /// The body.
            public var body: JSONValue

            /// Makes an answer.
            public init(status: Int, body: JSONValue) {
                self.status = status
                self.body = body
            }
        }

        /// The request the system under test sent (client lane), or was sent (server lane,
        /// bindings applied); nil when none was read.
        public var request: JSONValue?
        /// The answer the server under test gave (server lane).
        public var answer: Answer?

        /// Makes an observation.
        public init(request: JSONValue? = nil, answer: Answer? = nil) {
            self.request = request
            self.answer = answer
        }
    }

    /// The unique name within its suite, e.g. "step 07 push".
    public var name: String
    /// The JUnit classname, `kizuna.<area>`.
    public var classname: String
    /// How it ended.
    public var outcome: CaseOutcome
    /// Seconds spent.
    public var time: Double
    /// What the lane observed beyond the outcome (e.g. "tier bound"); JUnit `<system-out>`.
    public var note: String?
    /// The transcript step or recorded exchange number this case reports on, when it reports on
    /// one; the HTML report colours that step of the suite's sequence picture.
    public var step: Int?
    /// What the system under test sent or answered at that step; the lane's timeline drawing
    /// (`SuiteResult.drawing`) folds it into the picture and clears it, so no writer sees it raw.
    public var observed: Observed?

    /// Makes a case result.
    public init(name: String, classname: String, outcome: CaseOutcome, time: Double = 0, note: String? = nil) {
        self.name = name
        self.classname = classname
        self.outcome = outcome
        self.time = time
        self.note = note
    }
}

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
