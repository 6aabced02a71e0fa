import Corpus
import Harness
import JSON
import KizunaWire
import Reports

/// The client lane for one recording. Each client session becomes an in-memory transcript
/// (`RecordingToTranscript` with writes: every pushed mutation is a `local` write just before the
/// first push carrying it, with the atomic group that push gives it; every pull is a `pull` step)
/// and is played through the ordinary `ClientLane`: the same PostgREST mock serves the recorded
/// responses and judges each request, the same driver protocol, the same client findings. Sessions
/// run one after another, one driver each. Test cases are renamed after the exchanges.
public struct ClientReplay: Sendable {
    /// The lane that plays each session.
    var lane: ClientLane<KizunaSync>

    /// Makes a replay.
    /// - Parameter lane: the client lane to play sessions through.
    init(lane: ClientLane<KizunaSync>) { self.lane = lane }

    /// Replays a recording to a client.
    /// - Parameters:
    ///   - recording: the recording.
    ///   - file: its path.
    ///   - launch: starts a fresh driver per session.
    ///   - properties: the suite's properties.
    /// - Returns: one suite for the recording.
    public func run(_ recording: RecordingContents, file: String, launch: @escaping DriverLauncher, properties: [SuiteResult.Property])
        async -> SuiteResult
    {
        let classname = CaseResult.classname(
            lane: "client", caseID: "recording/" + (file.split(separator: "/").last.map(String.init) ?? file))
        var cases: [CaseResult] = []
        var leftToServer = 0
        // The request the driver sent for each exchange, by exchange number.
        var sent: [Int: JSONValue] = [:]
        for exchange in recording.exchanges where exchange.rpc == "http" {
            cases.append(
                CaseResult(
                    name: "exchange \(exchange.number) http (\(RecordedSession(of: exchange).shortLabel))", classname: classname,
                    outcome: .skipped("not a pull or push exchange (\(exchange.method) \(exchange.path)): not served to a client")))
        }
        for (index, session) in recording.sessions.enumerated() {
            let options = RecordingToTranscript.Options(
                caseID: RecordingToTranscript.caseID(for: file, index: index + 1), session: session, writes: true)
            let converted = RecordingToTranscript.convert(recording, options: options)
            let label = session.shortLabel
            for omission in converted.omitted {
                cases.append(
                    CaseResult(name: "exchange \(omission.exchange) (\(label))", classname: classname, outcome: .skipped(omission.reason)))
            }
            let loaded: LoadedTranscript
            do throws(CorpusError) {
                loaded = try LoadedTranscript(raw: CanonicalJSON.render(converted.json), file: file)
            } catch {
                cases.append(
                    CaseResult(
                        name: "session (\(label))", classname: classname,
                        outcome: .errored("the session has no client-lane form: \(error.detail)")))
                continue
            }
            let suite = await lane.run(loaded, launch: launch, properties: properties)
            let counted = SuiteResult.leftToLaneProperty("server")
            leftToServer += suite.properties.first { $0.name == counted }.flatMap { Int($0.value) } ?? 0
            let labels = Self.rpcs(loaded.transcript)
            for result in suite.cases {
                guard let request = result.observed?.request, let step = SuiteResult.stepNumber(in: result.name),
                    let exchange = converted.exchangeOfStep[step], sent[exchange] == nil
                else { continue }
                sent[exchange] = request
            }
            cases += suite.cases.map { result in
                var renamed = result
                renamed.observed = nil
                renamed.classname = classname
                renamed.name = Self.name(result.name, converted: converted, label: label, rpc: labels)
                if case .failed(let failures) = result.outcome {
                    renamed.outcome = .failed(
                        failures.map { failure in
                            var named = failure
                            named.message = Self.message(failure.message, converted: converted, label: label, rpc: labels)
                            return named
                        })
                }
                return renamed
            }
        }
        if let torn = recording.tornLine {
            cases.append(
                CaseResult(
                    name: "torn tail", classname: classname,
                    outcome: .skipped("torn last line \(torn) ignored: the recording was cut mid-write; every complete exchange was served")
                ))
        }
        if cases.isEmpty {
            cases.append(CaseResult(name: "no exchanges", classname: classname, outcome: .skipped("the recording holds no exchanges")))
        }
        var all = properties
        all.append(SuiteResult.Property(name: SuiteResult.leftToLaneProperty("server"), value: "\(leftToServer)"))
        all.append(SuiteResult.Property(name: "recorded_by", value: recording.header.tool))
        all.append(SuiteResult.Property(name: "upstream", value: recording.header.upstream))
        // What the driver sent, drawn in place of what the recording holds, the recorded beside it.
        var drawn = RecordingTimeline()
        for exchange in recording.exchanges {
            drawn.add(exchange, observed: sent[exchange.number].map { CaseResult.Observed(request: $0) })
        }
        return SuiteResult(name: file.split(separator: "/").last.map(String.init) ?? file, file: file, properties: all, cases: cases)
            .drawing(drawn.timeline)
    }

    /// Serves a recording, read whole (sessions are grouped), to fresh drivers.
    func run(_ source: RecordingSource, launch: @escaping DriverLauncher, properties: [SuiteResult.Property]) async -> SuiteResult {
        do throws(RunError) {
            return await run(try source.contents(), file: source.file, launch: launch, properties: properties)
        } catch {
            let name = source.file.split(separator: "/").last.map(String.init) ?? source.file
            return SuiteResult(
                name: name, file: source.file, properties: properties,
                cases: [
                    CaseResult(
                        name: "recording", classname: CaseResult.classname(lane: "client", caseID: "recording/" + name),
                        outcome: .errored("\(error)"))
                ])
        }
    }

    /// A finding's message with its leading "step N label" named after the exchange instead.
    static func message(_ message: String, converted: RecordingToTranscript.Result, label: String, rpc: [Int: String]) -> String {
        guard let colon = message.firstIndex(of: ":") else { return message }
        let head = String(message[..<colon])
        guard head.hasPrefix("step ") else { return message }
        return name(head, converted: converted, label: label, rpc: rpc) + message[colon...]
    }

    static func rpcs(_ transcript: Transcript) -> [Int: String] {
        var labels: [Int: String] = [:]
        for step in transcript.steps { labels[step.n] = step.label }
        return labels
    }

    /// "step 4 push" → "exchange 12 push (client …0001)"; "step 3 local" → "exchange 12 write
    /// (step 3, client …0001)"; anything else gains the session label.
    static func name(_ name: String, converted: RecordingToTranscript.Result, label: String, rpc: [Int: String]) -> String {
        let words = name.split(separator: " ", maxSplits: 2)
        guard words.count >= 2, words[0] == "step", let n = Int(words[1]) else { return "\(name) (\(label))" }
        if let exchange = converted.exchangeOfStep[n] { return "exchange \(exchange) \(rpc[n] ?? "rpc") (\(label))" }
        if let exchange = converted.writeOfStep[n] { return "exchange \(exchange) write (step \(n), \(label))" }
        return "\(name) (\(label))"
    }
}
