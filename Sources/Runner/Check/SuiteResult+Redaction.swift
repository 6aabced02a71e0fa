import Corpus
import Reports

extension SuiteResult {
    /// The suite as every report shows it: names, properties, notes and failure messages and
    /// bodies passed through the redactor, so that a secret in a hand-written recording, a live
    /// server's answer or a path never reaches the console, JUnit or JSON.
    /// - Parameter redactor: the run's redactor, shared by its reports so placeholders agree.
    /// - Returns: the suite to report.
    func redacted(by redactor: Redactor) -> SuiteResult {
        var suite = self
        suite.name = redactor.text(name)
        suite.properties = properties.map { Property(name: $0.name, value: redactor.text($0.value)) }
        suite.cases = cases.map { result in
            var result = result
            result.name = redactor.text(result.name)
            result.classname = redactor.text(result.classname)
            result.note = result.note.map(redactor.text)
            switch result.outcome {
            case .passed: break
            case .failed(let failures):
                result.outcome = .failed(
                    failures.map { Failure(ruleID: $0.ruleID, message: redactor.text($0.message), body: redactor.text($0.body)) })
            case .skipped(let reason): result.outcome = .skipped(redactor.text(reason))
            case .errored(let reason): result.outcome = .errored(redactor.text(reason))
            }
            return result
        }
        return suite
    }
}
