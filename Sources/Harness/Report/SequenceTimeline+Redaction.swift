import Capture
import Corpus
import Reports

extension SequenceTimeline {
    /// The timeline as the HTML report shows it: lifeline names, labels and details passed
    /// through the run's redactor, like every other text of a suite.
    /// - Parameter redactor: the run's redactor.
    /// - Returns: the timeline to report.
    package func redacted(by redactor: Redactor) -> SequenceTimeline {
        var timeline = self
        timeline.lifelines = lifelines.map { Lifeline(name: redactor.prose($0.name), role: $0.role) }
        timeline.events = events.map { event in
            var event = event
            event.label = redactor.prose(event.label)
            event.detail = redactor.prose(event.detail)
            return event
        }
        return timeline
    }
}
