import Capture
import Checks
import Corpus
import Harness
import JSON
import KizunaWire
import PowerSyncWire
import Reports

/// The offline check of a recording, streamed: each exchange is decoded and folded through the
/// rules as it is read, so memory stays bounded whatever the recording's size. The profile comes
/// from the exchanges: pull and push go through KizunaSync's rules, PowerSync's routes through
/// the PS rules (`+PowerSync.swift`).
public struct RecordingCheck {
    private var checker = Checker<KizunaSync.Trace>(settings: .live)
    /// The PS rules, over the recording's PowerSync exchanges in order.
    var powerSync = Checker<PowerSync.Trace>()
    /// Whether any exchange was one of PowerSync's routes.
    var sawPowerSync = false
    var cases: [CaseResult] = []
    /// The outcomes of the passing exchanges not kept.
    var notKept = Tally()
    let keepPassing: Bool
    /// The classname until the file is known; `suite(file:…)` names the cases after the recording.
    let classname = "kizuna.check.recording"
    /// The header, once read.
    public private(set) var header: RecordingHeader?

    /// Starts a check.
    /// - Parameter keepPassing: keep a case per passing exchange (for JUnit/JSON reports); when
    ///   false only failures are kept and passes are counted.
    public init(keepPassing: Bool) { self.keepPassing = keepPassing }

    /// Checks one line's item.
    /// - Parameter item: the header or an exchange.
    public mutating func observe(_ item: RecordingReader.Item) {
        switch item {
        case .header(let header): self.header = header
        case .exchange(let exchange):
            if observePowerSync(exchange) { return }
            let started = ContinuousClock.now
            let event = KizunaSync.Trace.Event.event(of: exchange)
            guard case .exchange = event.payload else {
                let reason =
                    exchange.rpc == "http"
                    ? "not a pull or push exchange (\(exchange.method) \(exchange.path)): recorded, not judged by the protocol rules"
                    : exchange.status == 0
                        ? "the answer never reached the client (status 0, e.g. a dropped ack): nothing to judge offline"
                        : "HTTP \(exchange.status) error response: the offline rules judge 2xx pull and push answers; error shapes are checked in the server lane"
                let outcome = CaseOutcome.skipped(reason)
                if keepPassing {
                    cases.append(CaseResult(name: "exchange \(exchange.number) \(exchange.rpc)", classname: classname, outcome: outcome))
                } else {
                    notKept.add(outcome)
                }
                return
            }
            let findings = checker.observe(event)
            let name = "exchange \(exchange.number) \(exchange.rpc)"
            let outcome: CaseOutcome
            if findings.isEmpty {
                outcome = .passed
            } else {
                let scope: JSONValue = ["request": exchange.request, "response": exchange.response]
                outcome = .failed(findings.map { TranscriptCheck.failure($0, in: scope) })
            }
            record(outcome, name: name, seconds: RunClock.seconds(since: started))
        }
    }

    /// Counts an outcome and keeps its case when passes are kept or it did not pass.
    mutating func record(_ outcome: CaseOutcome, name: String, seconds: Double, note: String? = nil) {
        if keepPassing || outcome != .passed {
            var result = CaseResult(name: name, classname: classname, outcome: outcome, time: seconds)
            result.note = note
            cases.append(result)
        } else {
            notKept.add(outcome)
        }
    }

    /// The suite, once the recording is read.
    /// - Parameters:
    ///   - file: the recording file.
    ///   - tornLine: the torn last line, if any.
    ///   - properties: the suite's properties.
    /// - Returns: the suite result, its passes not kept counted in `notKept`.
    public func suite(file: String, tornLine: Int?, properties: [SuiteResult.Property]) -> SuiteResult {
        var all = properties
        if sawPowerSync || header?.protocolName == CorpusProfile.powerSync.rawValue {
            all.append(PowerSync.profileProperty)
        }
        if let header {
            all.append(SuiteResult.Property(name: "recorded_by", value: header.tool))
            all.append(SuiteResult.Property(name: "upstream", value: header.upstream))
        }
        var cases = self.cases
        if cases.isEmpty && notKept.tests == 0 {
            cases.append(CaseResult(name: "no exchanges", classname: classname, outcome: .skipped("the recording holds no exchanges")))
        }
        if let tornLine {
            let outcome = CaseOutcome.skipped(
                "torn last line \(tornLine) ignored: the recording was cut mid-write; every complete exchange was checked")
            cases.append(CaseResult(name: "torn tail", classname: classname, outcome: outcome))
        }
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let classname = CaseResult.classname(lane: "check", caseID: "recording/" + name)
        for index in cases.indices { cases[index].classname = classname }
        var suite = SuiteResult(name: name, file: file, properties: all, cases: cases)
        suite.notKept = notKept
        return suite
    }
}
