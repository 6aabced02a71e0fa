import Reports

/// One exchange of a recording in a known-failing list or an expectations file:
/// `<recording file name>#<exchange number>`, e.g. `multi-user-sync.jsonl#12`. The exchange's
/// testcases (named `exchange 12 …`) must fail; they are then reported skipped, and the rest of
/// the recording is judged as usual. An exchange that passes makes the entry stale, which fails.
extension Expectations {
    /// The recording's name and the exchange number of an entry id like `name.jsonl#12`, or nil
    /// for a whole case's id.
    /// - Parameter id: the entry's id.
    /// - Returns: the parts.
    public static func exchange(of id: String) -> (recording: String, number: Int)? {
        guard let hash = id.lastIndex(of: "#"), hash != id.startIndex else { return nil }
        guard let number = Int(id[id.index(after: hash)...]), number >= 1 else { return nil }
        return (String(id[..<hash]), number)
    }

    /// Whether a testcase belongs to an exchange: its name is `exchange <n>` or starts `exchange <n> `.
    /// - Parameters:
    ///   - name: the testcase's name.
    ///   - number: the exchange number.
    /// - Returns: whether it does.
    package static func belongs(_ name: String, toExchange number: Int) -> Bool {
        name == "exchange \(number)" || name.hasPrefix("exchange \(number) ")
    }

    /// Applies the entries that name exchanges of this suite's recording: a listed exchange whose
    /// testcases failed is reported skipped; one that passed, or that the recording lacks, adds a
    /// failing "known-failing entry" testcase.
    /// - Returns: the suite to report.
    package func applyExchanges(to suite: SuiteResult) -> SuiteResult {
        let listed = entries.compactMap { id, entry -> (Int, Entry)? in
            guard let exchange = Self.exchange(of: id), exchange.recording == suite.name else { return nil }
            return (exchange.number, entry)
        }.sorted { $0.0 < $1.0 }
        guard !listed.isEmpty else { return suite }
        var reported = suite
        let classname = suite.cases.first?.classname ?? "kizuna.recording"
        let where_ = file.map { " in \($0)" } ?? ""
        for (number, entry) in listed {
            let why = entry.reason.map { "\($0); " } ?? ""
            let indices = reported.cases.indices.filter { Self.belongs(reported.cases[$0].name, toExchange: number) }
            var failed = false
            for index in indices {
                switch reported.cases[index].outcome {
                case .failed(let failures):
                    reported.cases[index].outcome = .skipped("known failing: \(why)" + (failures.first?.message ?? "failed"))
                    failed = true
                case .errored(let reason):
                    reported.cases[index].outcome = .skipped("known failing: \(why)" + reason)
                    failed = true
                default: break
                }
            }
            guard !failed else { continue }
            let message =
                indices.isEmpty
                ? "\(suite.name)#\(number)\(where_) names no exchange of the recording: fix or remove it"
                : "\(suite.name)#\(number)\(where_) is listed as known failing but exchange \(number) passed: remove the stale entry"
            reported.cases.append(
                CaseResult(
                    name: "known-failing entry #\(number)", classname: classname,
                    outcome: .failed([Failure(ruleID: "AC-KNOWN-FAILING", message: message)])))
        }
        return reported
    }
}
