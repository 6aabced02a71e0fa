import Corpus
import JSON
import PowerSyncWire

/// KizunaSync's conversion, under a name the PowerSync namespace does not shadow.
private typealias KizunaSyncConversion = RecordingToTranscript

extension PowerSync {
    /// A recording of a PowerSync session as a PowerSync transcript (docs/powersync.md,
    /// "Transcript grammar"): each judged exchange on one of PowerSync's routes becomes a step,
    /// numbered densely from 1 in recording order, its bodies as recorded (a sync stream's lines as
    /// the recorded array). What cannot be a step (other paths, error answers, bodies not recorded)
    /// is left out with a note, as `RecordingToTranscript` does for KizunaSync. The session's calls of
    /// the service's fixture endpoint are its source side: `source` and `replicate` calls become
    /// `source` and `replicate` steps in their place, a `configure` call the transcript's `service`
    /// settings, so the server lane can replay the recording from the state it was recorded in. A
    /// recording with no such call (a live service) gets its source side inferred from its streams
    /// (`inferredSource`).
    public enum RecordingToTranscript {
        /// The transcript and what was left out.
        public struct Result: Sendable, Hashable {
            /// The transcript document.
            public var json: JSONValue
            /// One line per exchange left out.
            public var notes: [String]
        }

        /// Whether a recording is of a PowerSync session: its header names the profile, or one of
        /// its exchanges is on a PowerSync route.
        /// - Returns: true for PowerSync.
        public static func isPowerSync(_ recording: RecordingContents) -> Bool {
            recording.header.protocolName == CorpusProfile.powerSync.rawValue
                || recording.exchanges.contains { PowerSync.Surface.route(kind: $0.rpc) != nil }
        }

        /// The case id a PowerSync transcript carries: `caseID` when it is `powersync/<NNN>-<slug>`,
        /// else its `<NNN>-<slug>` under `powersync/`.
        /// - Parameter caseID: the case id asked for (e.g. the default `lifecycle/001-recording-x`).
        /// - Returns: a PowerSync case id.
        public static func caseID(_ caseID: String) -> String {
            if PowerSync.Transcript.isCaseID(caseID) { return caseID }
            let tail = caseID.split(separator: "/", maxSplits: 1).last.map(String.init) ?? caseID
            return "powersync/" + tail
        }

        /// Converts a recording.
        /// - Parameters:
        ///   - recording: the recording, already redacted.
        ///   - caseID: the case id, `powersync/<NNN>-<slug>`.
        /// - Returns: the transcript and notes.
        public static func convert(_ recording: RecordingContents, caseID: String) -> Result {
            var steps: [JSONValue] = []
            var notes: [String] = []
            var user: String?
            var client: String?
            var service: JSONValue?
            let moments = moments(in: recording.exchanges)
            for (index, exchange) in recording.exchanges.enumerated() where moments[index] == nil {
                switch exchange.powerSyncStep {
                case .fixture(let fixture, accepted: false):
                    notes.append("exchange \(exchange.number): fixture \(fixture.rawValue) refused (HTTP \(exchange.status)), not a step")
                case .fixture(let fixture, accepted: true):
                    switch fixture {
                    case .reset where steps.isEmpty:
                        continue  // every replay starts from an empty service
                    case .reset:
                        notes.append(
                            "exchange \(exchange.number): a reset after step \(steps.count) cannot be a step (a replay resets only before its first)"
                        )
                    case .configure where steps.isEmpty && service == nil:
                        service = exchange.request
                    case .configure:
                        notes.append(
                            "exchange \(exchange.number): a configure call after the first step or a second one cannot be a step (the transcript's service settings hold for the whole case)"
                        )
                    case .source, .replicate:
                        steps.append(sourceStep(exchange, fixture, n: steps.count + 1, during: nil))
                    }
                case .notPowerSync:
                    notes.append("exchange \(exchange.number): \(exchange.method) \(exchange.path) is not a PowerSync route, not a step")
                case .notJudged(let route, let reason):
                    notes.append("exchange \(exchange.number) \(route.rawValue): \(reason), not a step")
                case .step(let step):
                    user = user ?? exchange.user
                    client = client ?? exchange.client
                    guard let json = json(of: step, n: steps.count + 1) else { continue }
                    steps.append(json)
                    let stream = steps.count
                    // The fixture calls made while this stream was open, at the line they followed.
                    for (call, moment) in moments.filter({ $0.value.stream == index }).sorted(by: {
                        ($0.value.at, $0.key) < ($1.value.at, $1.key)
                    }) {
                        guard case .fixture(let fixture, _) = recording.exchanges[call].powerSyncStep else { continue }
                        steps.append(
                            sourceStep(recording.exchanges[call], fixture, n: steps.count + 1, during: (stream, moment.afterLine)))
                    }
                }
            }
            if !steps.contains(where: { ["source", "replicate"].contains($0["kind"]?.stringValue) }) {
                let inferred = inferredSource(steps, user: user ?? "unknown")
                steps = inferred.steps
                notes = inferred.notes + notes
            }
            var document: JSONObject = [
                "profile": .string(CorpusProfile.powerSync.rawValue), "case": .string(caseID),
                "title": .string("A recorded PowerSync session (\(recording.header.upstream))"),
                "cites": [.string("recording by \(recording.header.tool), started \(recording.header.startedAt)")],
                "user_id": .string(user ?? "unknown"), "client_id": .string(client ?? "unknown"),
                "steps": .array(steps),
            ]
            if let service { document["service"] = service }
            return Result(json: .object(document), notes: notes)
        }

        /// An exchange step as the grammar writes it; nil for the steps no recording holds (what a
        /// client is told to do is not on the wire).
        private static func json(of step: PowerSync.Step, n: Int) -> JSONValue? {
            switch step.action {
            case .syncStream(let request, let lines):
                ["n": .number(JSONNumber(n)), "kind": .string(step.label), "request": request, "lines": .array(lines)]
            case .checkpointRequest(let request, let response), .writeCheckpoint(let request, let response):
                ["n": .number(JSONNumber(n)), "kind": .string(step.label), "request": request, "response": response]
            case .client, .source, .replicate: nil
            }
        }
    }
}

extension PowerSync.RecordingToTranscript {
    /// A PowerSync recording as the live lanes replay it: passed through the recorder's redactor
    /// under the policy it states (as every conversion is), converted to the in-memory transcript
    /// (its fixture calls as source steps), and loaded as a transcript file would be, with the
    /// client lane's reading of it (`PowerSync.Transcript.recordedClient`) beside it. The lanes
    /// then play it exactly as they play a transcript.
    /// - Parameters:
    ///   - recording: the recording as read.
    ///   - file: its file, for the case id and errors.
    /// - Returns: the loaded transcript and the notes of what was left out.
    /// - Throws: `CorpusError` when the converted transcript breaks the grammar.
    public static func replay(_ recording: RecordingContents, file: String) throws(CorpusError) -> (
        loaded: PowerSync.LoadedTranscript, notes: [String]
    ) {
        let redacted = Redactor(policy: RedactionPolicy(recorded: recording.header.redaction), continuingAfter: recording.bytes)
            .recording(recording)
        let result = convert(redacted, caseID: caseID(KizunaSyncConversion.caseID(for: file)))
        var loaded = try PowerSync.LoadedTranscript(raw: CanonicalJSON.render(result.json), json: result.json, file: file)
        loaded.clientPlay = loaded.transcript.recordedClient
        return (loaded, result.notes)
    }
}
