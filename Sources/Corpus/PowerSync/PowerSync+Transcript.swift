import JSON
import KizunaWire
import PowerSyncWire

extension PowerSync {
    /// A PowerSync transcript (`"profile": "powersync"`): a case id, title, citations, the user and
    /// client it runs as, and its exchanges as steps (docs/powersync.md, "Transcript grammar").
    public struct Transcript: Sendable, Hashable {
        /// The case id, `powersync/<NNN>-<slug>`.
        public var caseID: String
        /// The title.
        public var title: String
        /// Authority citations (service or SDK source paths, the seed).
        public var cites: [String]
        /// The authenticated user the exchanges run as.
        public var userID: String
        /// The PowerSync client id.
        public var clientID: String
        /// Prose notes.
        public var notes: [String]
        /// The steps, numbered densely from 1.
        public var steps: [PowerSync.Step]
        /// How the service answers, for the server lane (top-level `service`).
        public var service = PowerSync.ServiceSettings()
        /// How the client follows its uploads (top-level `checkpoint_mode`, legacy when absent).
        public var checkpointMode = PowerSync.CheckpointMode.legacy

        /// True when `id` follows the PowerSync case-id grammar `powersync/<NNN>-<slug>`.
        /// - Returns: whether it is well-formed.
        public static func isCaseID(_ id: String) -> Bool {
            id.wholeMatch(of: /powersync\/[0-9]{3}-[a-z0-9]+(-[a-z0-9]+)*/) != nil
        }

        /// Reads a transcript strictly.
        /// - Parameters:
        ///   - json: the parsed file.
        ///   - file: the file name, for errors.
        /// - Throws: `CorpusError` naming file, step and JSON pointer.
        public init(json: JSONValue, file: String) throws(CorpusError) {
            var step: Int?
            do throws(WireError) {
                var reader = try ObjectReader(json, at: .root, malformed: .json)
                _ = try reader.string("profile")
                caseID = try reader.string("case")
                if !Self.isCaseID(caseID) {
                    throw WireError(.json, at: JSONPointer(tokens: ["case"]), "case id \"\(caseID)\" is not powersync/<NNN>-<slug>")
                }
                title = try reader.string("title")
                cites = try ObjectReader.strings(try reader.required("cites"), at: JSONPointer(tokens: ["cites"]))
                userID = try reader.string("user_id")
                clientID = try reader.string("client_id")
                notes =
                    try reader.optional("notes").map { v throws(WireError) in
                        try ObjectReader.strings(v, at: JSONPointer(tokens: ["notes"]))
                    }
                    ?? []
                let stepsPointer = JSONPointer(tokens: ["steps"])
                let rawSteps = try reader.array("steps")
                if rawSteps.isEmpty { throw WireError(.json, at: stepsPointer, "a transcript has at least one step") }
                var steps: [PowerSync.Step] = []
                for (index, element) in rawSteps.enumerated() {
                    step = element["n"]?.numberValue?.intValue ?? index + 1
                    let decoded = try PowerSync.Step(json: element, at: stepsPointer.appending(index))
                    if decoded.n != index + 1 {
                        throw WireError(
                            .json, at: stepsPointer.appending(index).appending("n"),
                            "step numbers are dense from 1: expected n=\(index + 1), found n=\(decoded.n)")
                    }
                    steps.append(decoded)
                }
                if let (index, error) = PowerSync.Step.duringError(in: steps) {
                    step = index + 1
                    throw error
                }
                step = nil
                self.steps = steps
                service = try PowerSync.ServiceSettings.read(&reader)
                checkpointMode = try PowerSync.CheckpointMode.read(&reader)
                try Self.checkModes(steps, checkpointMode)
                try reader.finish()
            } catch {
                throw CorpusError.grammar(file, step: step, at: error.pointer, error.detail)
            }
        }
    }
}

extension PowerSync.Transcript {
    /// Checks that the client steps fit the checkpoint mode: in legacy mode an upload is followed
    /// by a write checkpoint and the app's checkpoint request is refused; in requests and custom
    /// mode an upload is followed by a checkpoint request and the app's request is made.
    static func checkModes(_ steps: [PowerSync.Step], _ mode: PowerSync.CheckpointMode) throws(WireError) {
        for (index, step) in steps.enumerated() {
            guard case .client(let client) = step.action else { continue }
            let at = JSONPointer(tokens: ["steps"]).appending(index)
            switch (client, mode.allocatesRequests) {
            case (.upload(_, _, .checkpointRequest?), false):
                throw WireError(
                    .json, at: at.appending("checkpoint_request"),
                    "a legacy-mode client follows an upload with a write_checkpoint; set \"checkpoint_mode\": \"requests\" for a checkpoint_request"
                )
            case (.upload(_, _, .writeCheckpoint?), true):
                throw WireError(
                    .json, at: at.appending("write_checkpoint"), "a requests-mode client follows an upload with a checkpoint_request")
            case (.requestCheckpoint, false):
                throw WireError(
                    .json, at: at.appending("request"),
                    "a legacy-mode client refuses the app's checkpoint request (expect_error); set \"checkpoint_mode\": \"requests\"")
            case (.requestCheckpointRefused, true):
                throw WireError(.json, at: at.appending("expect_error"), "a requests-mode client makes the app's checkpoint request")
            default: continue
            }
        }
    }
}

extension PowerSync {
    /// A PowerSync transcript together with the bytes it was read from.
    public struct LoadedTranscript: Sendable, Hashable {
        /// The transcript.
        public var transcript: PowerSync.Transcript
        /// The file as named to the user.
        public var file: String
        /// The exact bytes, for the canonical-bytes rule (I-1).
        public var raw: [UInt8]
        /// The parsed document.
        public var json: JSONValue
        /// The case as the client lane plays it, when that differs from `transcript`: for a recorded
        /// session, its checkpoint-request exchanges are the client's own requests (`recordedClient`).
        /// Nil for a transcript written as such.
        public var clientPlay: PowerSync.Transcript?

        /// Reads a transcript from its bytes and parsed document.
        /// - Parameters:
        ///   - raw: the file bytes.
        ///   - json: the parsed document.
        ///   - file: the file name, for errors.
        /// - Throws: `CorpusError` for a grammar violation.
        public init(raw: [UInt8], json: JSONValue, file: String) throws(CorpusError) {
            transcript = try PowerSync.Transcript(json: json, file: file)
            self.file = file
            self.raw = raw
            self.json = json
        }
    }
}

extension PowerSync.Transcript {
    /// The transcript of a recorded session as the client lane replays it. A client that posts
    /// checkpoint requests runs in requests mode, and its requests are of two kinds, told apart
    /// by where they sit as PowerSync's core places them (powersync-sqlite-core at 60ebb70,
    /// docs/write-checkpoint-requests.md): the first of the session and each one right before a
    /// sync stream is its reconcile at connect (`reconcile`); every other one is the app's
    /// `request-checkpoint` step with the same bodies, so the client lane asks the client for a
    /// checkpoint request and expects it to send the recorded body. Every other step stays: a
    /// `write-checkpoint` exchange is one the client lane cannot make a client send, so it is not
    /// applicable there (docs/recording.md, "PowerSync exchanges").
    public var recordedClient: PowerSync.Transcript {
        var copy = self
        var first = true
        copy.steps = steps.enumerated().map { index, step in
            guard case .checkpointRequest(let request, let response) = step.action else { return step }
            defer { first = false }
            let next = steps[(index + 1)...].first { !$0.isSourceSide }
            if first || next.map({ if case .syncStream = $0.action { true } else { false } }) == true {
                return PowerSync.Step(n: step.n, action: step.action, reconcile: true)
            }
            return PowerSync.Step(n: step.n, action: .client(.requestCheckpoint(request: request, response: response)))
        }
        if steps.contains(where: { if case .checkpointRequest = $0.action { true } else { false } }) { copy.checkpointMode = .requests }
        return copy
    }
}
