extension JUnitWriter {
    /// Writes one suite as a `<testsuite>` element with its properties and test cases.
    ///
    /// Counts come from `suite.tally`; each `Failure` becomes one `<failure>` whose `type` is
    /// the rule id, `message` the one-line message and content the body; skipped and errored
    /// cases carry their reason as the `message` of `<skipped>` and `<error>`.
    /// - Parameter suite: the suite.
    /// - Throws: `ReportError.sinkFailed` when the sink refuses bytes, `ReportError.writerFailed`
    ///   when libxml2 fails, `ReportError.alreadyFinished` after `finish()` or a failure.
    public func write(_ suite: SuiteResult) throws {
        let tally = suite.tally
        try start("testsuite")
        try attribute("name", suite.name)
        try attribute("tests", count: tally.tests)
        try attribute("failures", count: tally.failures)
        try attribute("errors", count: tally.errors)
        try attribute("skipped", count: tally.skipped)
        try attribute("time", seconds: suite.time)
        if let file = suite.file { try attribute("file", file) }
        if !suite.properties.isEmpty {
            try start("properties")
            for property in suite.properties {
                try start("property")
                try attribute("name", property.name)
                try attribute("value", property.value)
                try end()
            }
            try end()
        }
        for result in suite.cases { try write(result) }
        try end()
    }

    /// The message of a `<failure>` written for a failed case that carries no `Failure`.
    static let unexplainedFailure = "failed without a recorded finding"

    private func write(_ result: CaseResult) throws {
        try start("testcase")
        try attribute("name", result.name)
        try attribute("classname", result.classname)
        try attribute("time", seconds: result.time)
        switch result.outcome {
        case .passed:
            break
        case .failed(let failures):
            if failures.isEmpty {
                try start("failure")
                try attribute("message", Self.unexplainedFailure)
                try end()
            }
            for failure in failures {
                try start("failure")
                try attribute("type", failure.ruleID)
                try attribute("message", failure.message)
                if !failure.body.isEmpty { try text(failure.body) }
                try end()
            }
        case .skipped(let reason):
            try start("skipped")
            try attribute("message", reason)
            try end()
        case .errored(let reason):
            try start("error")
            try attribute("message", reason)
            try end()
        }
        try end()
    }
}
