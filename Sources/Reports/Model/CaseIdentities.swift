/// Keeps a report's test identities unique: JUnit consumers (Jenkins, GitLab) key a test's history
/// on its (classname, name) pair, so two test cases sharing one would share one history.
///
/// The lanes already name each case of a suite uniquely and give each suite its own classname
/// (`CaseResult.classname(lane:caseID:variant:)`); this is the guarantee for what they cannot
/// see, such as one input given twice. A suite whose classname an earlier suite of the report
/// used gets `#2`, `#3`… appended to it, and a name repeated within a classname gets ` (2)`,
/// ` (3)`…, so identities depend only on the order of the suites, which is the inputs' order,
/// and are stable across runs. Memory grows with the number of distinct classnames only.
public struct CaseIdentities: Sendable {
    /// How many suites of the report used each classname so far.
    private var claimed: [String: Int] = [:]

    /// An empty record, for a new report.
    public init() {}

    /// The suite with every (classname, name) pair unused by earlier suites and by its own other cases.
    /// - Parameter suite: the next suite of the report.
    /// - Returns: the suite, renamed only where a pair would repeat.
    public mutating func unique(_ suite: SuiteResult) -> SuiteResult {
        var renamed: [String: String] = [:]
        for classname in suite.cases.map(\.classname) where renamed[classname] == nil {
            var candidate = classname
            if var count = claimed[classname] {
                repeat {
                    count += 1
                    candidate = "\(classname)#\(count)"
                } while claimed[candidate] != nil
            }
            renamed[classname] = candidate
        }
        for (original, chosen) in renamed {
            claimed[original, default: 0] += 1
            if chosen != original { claimed[chosen, default: 0] += 1 }
        }
        var result = suite
        var names: [String: [String: Int]] = [:]
        for index in result.cases.indices {
            let classname = renamed[result.cases[index].classname] ?? result.cases[index].classname
            result.cases[index].classname = classname
            let name = result.cases[index].name
            let seen = names[classname, default: [:]][name, default: 0] + 1
            names[classname, default: [:]][name] = seen
            if seen > 1 { result.cases[index].name = "\(name) (\(seen))" }
        }
        return result
    }
}
