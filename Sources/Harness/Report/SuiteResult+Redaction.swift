import Capture
import Corpus
import Reports

extension SuiteResult {
    /// The suite as every report shows it: names, properties, notes and failure messages and
    /// bodies passed through the redactor, so that a secret in a hand-written recording, a live
    /// server's answer or a path never reaches the console, JUnit, JSON or HTML.
    /// - Parameter redactor: the run's redactor, shared by its reports so placeholders agree.
    /// - Returns: the suite to report.
    package func redacted(by redactor: Redactor) -> SuiteResult {
        var suite = self
        suite.name = redactor.prose(name)
        suite.properties = properties.map { Property(name: $0.name, value: redactor.prose($0.value)) }
        suite.cases = cases.map { result in
            var result = result
            result.name = redactor.prose(result.name)
            result.classname = redactor.prose(result.classname)
            result.note = result.note.map(redactor.prose)
            // Drawn into the timeline already (`drawing(transcript:)`); no writer reads it raw.
            result.observed = nil
            switch result.outcome {
            case .passed: break
            case .failed(let failures):
                result.outcome = .failed(
                    failures.map { Failure(ruleID: $0.ruleID, message: redactor.prose($0.message), body: redactor.prose($0.body)) })
            case .skipped(let reason): result.outcome = .skipped(redactor.prose(reason))
            case .errored(let reason): result.outcome = .errored(redactor.prose(reason))
            }
            return result
        }
        suite.timeline = timeline?.redacted(by: redactor)
        return suite
    }
}
