/// One id of the catalog as `accord rules ID` shows it, whatever kind of check it is: a rule fold
/// (I-n, AC-…), a runner check (AC-GOLDEN, AC-BINDING, AC-DIFF, AC-KNOWN-FAILING) or a client
/// obligation (CL-…, KM-…). Every id a report can carry as a failure type is one.
public struct CatalogEntry: Sendable, Hashable {
    /// The stable id.
    public var id: String
    /// A short title.
    public var title: String
    /// The rule in one sentence.
    public var statement: String
    /// Its authority.
    public var source: String
    /// What checks it: how a rule is evaluated, or the lane or command that observes it.
    public var checkedBy: String
    /// Its fixtures, as (label, text) pairs: a passing and a violating one, or where it is exercised.
    public var fixtures: [(label: String, text: String)]

    /// The entry of a rule fold, with its passing and violating fixtures.
    public init(_ rule: RuleDescriptor) {
        id = rule.id.rawValue
        title = rule.title
        statement = rule.statement
        source = rule.source
        checkedBy =
            rule.profile == .powerSync
            ? "accord check on PowerSync transcripts and corpora (\"profile\": \"powersync\"), evaluated by \(rule.evaluation.rawValue), and by the server lane on a PowerSync service's live answers"
            : "accord check and both lanes' rules (evaluated by \(rule.evaluation.rawValue))"
        fixtures = [("passing", rule.passing), ("violating (\(rule.failsAt))", rule.violating)]
    }

    /// The entry of a runner check, with a passing and a violating input.
    public init(_ check: RunnerCheck) {
        id = check.id
        title = check.title
        statement = check.statement
        source = check.source
        checkedBy = check.checkedBy
        fixtures = [("passing", check.passing), ("violating", check.violating)]
    }

    /// The entry of a client obligation: the lane observes it, and the corpus's client steps exercise it.
    public init(_ obligation: ClientObligation) {
        id = obligation.id
        let lane = ObligationLane(obligation.id)
        title = lane.title
        statement = obligation.statement
        source = obligation.source
        checkedBy = obligation.observed
        fixtures = [("passing", lane.passing), ("violating", lane.violating(obligation.obligation))]
    }

    /// The entry as `accord rules ID` prints it: id and title, the statement, source, what checks
    /// it, and its fixtures, lines separated by LF without a trailing newline.
    public var text: String {
        var lines = ["\(id): \(title)", "", statement, "", "Source: \(source).", "Checked by: \(checkedBy).", ""]
        for fixture in fixtures {
            var body = fixture.text
            while body.hasSuffix("\n") { body.removeLast() }
            if body.contains("\n") || body.hasPrefix("[") || body.hasPrefix("{") {
                lines += ["Fixture, \(fixture.label):", body, ""]
            } else {
                lines += ["Fixture, \(fixture.label): \(body)", ""]
            }
        }
        while lines.last == "" { lines.removeLast() }
        return lines.joined(separator: "\n")
    }

    /// Compares two entries by their fields.
    /// - Parameters:
    ///   - lhs: one entry.
    ///   - rhs: another.
    /// - Returns: whether they are equal.
    public static func == (lhs: CatalogEntry, rhs: CatalogEntry) -> Bool { lhs.id == rhs.id && lhs.text == rhs.text }

    /// Hashes the entry.
    public func hash(into hasher: inout Hasher) {
        hasher.combine(id)
        hasher.combine(text)
    }
}

extension RuleCatalog {
    /// Every id of the catalog: the rule folds (ordered by id), the PowerSync profile's rules, the runner checks, then the client
    /// and kill-matrix obligations.
    public static var entries: [CatalogEntry] {
        rules.map(CatalogEntry.init) + powerSyncRules.map(CatalogEntry.init) + RunnerCheck.all.map(CatalogEntry.init)
            + ClientObligation.all.map(CatalogEntry.init)
    }

    /// The entry with an id, compared without regard to case, if the catalog has it.
    /// - Parameter id: the id, e.g. `I-5` or `ac-golden`.
    /// - Returns: the entry.
    public static func entry(_ id: String) -> CatalogEntry? { entries.first { $0.id.uppercased() == id.uppercased() } }
}

/// Which lane checks an obligation, read from its id's prefix, with the fixtures the catalog shows.
private enum ObligationLane {
    case client, kill, storage, powerSyncClient

    init(_ id: String) {
        self =
            id.hasPrefix("KM-")
            ? .kill : id.hasPrefix("SF-") ? .storage : id.hasPrefix("PSC-") ? .powerSyncClient : .client
    }

    var title: String {
        switch self {
        case .client: "client obligation"
        case .kill: "kill-matrix obligation"
        case .storage: "storage-fault obligation"
        case .powerSyncClient: "PowerSync client obligation"
        }
    }

    var passing: String {
        switch self {
        case .client: "accord run --client 'accord driver' ../shared/kizunasync-protocol"
        case .kill: "accord run --client 'accord driver' --kill-matrix ../shared/kizunasync-protocol (docs/kill-matrix.md)"
        case .storage: "accord run --client 'accord driver' --storage-faults ../shared/kizunasync-protocol (docs/storage-faults.md)"
        case .powerSyncClient: "accord run --client 'accord driver --profile powersync' Conformance/powersync"
        }
    }

    func violating(_ obligation: ObligationID) -> String {
        switch (self, obligation) {
        case (.storage, .falseSuccess):
            "accord driver --fault ack-failed-write (a write answered as done although its commit failed), caught at local-write"
        case (.storage, .faultCursor):
            "accord driver --fault drop-cursor-on-failed-commit (the cursor dropped after a failed page commit), caught at staged-page"
        case (.storage, _):
            "the judge's fixtures in Tests/LanesTests/StorageFaultJudgeTests.swift: a state or answer that breaks it, found and named"
        case (.powerSyncClient, _):
            "accord run --client 'accord driver --profile powersync --fault NAME' Conformance/powersync, NAME a seeded fault that breaks it (accord driver --help)"
        default:
            "accord selftest: the client mutants of the reference client (accord driver) that break it"
        }
    }
}
