import JSON

/// Turns a recording into a transcript document: every recorded pull and push becomes an rpc
/// step (another session's exchanges carry a `caller`; one whose answer was lost, status 0,
/// becomes a drop-ack fault step), and, when asked, each pushed mutation
/// becomes a `local` write just before the first push that carries it, so that the client lane
/// can play the recording through a driver. The context comes from the first session; the
/// server configuration is inferred (`ServerInference`). Plain HTTP exchanges and bodies that
/// are not JSON objects have no transcript form and are listed as omitted.
public enum RecordingToTranscript {
    /// What to convert.
    public struct Options: Sendable, Hashable {
        /// The case id the transcript carries (`<flow>/<NNN>-<slug>`).
        public var caseID: String
        /// Only this session's exchanges, or nil for all of them.
        public var session: RecordedSession?
        /// Whether pushed mutations become local write steps.
        public var writes: Bool
        /// The world the recording implies (`WorldInference`): its changes become server steps,
        /// the history first, each other change just before the exchange it precedes, and its
        /// configuration the context's. Nil: no server steps, the configuration inferred from the
        /// requests alone.
        public var world: RecordedWorld?

        /// Makes options.
        /// - Parameters:
        ///   - caseID: the case id.
        ///   - session: the one session to keep, or nil.
        ///   - writes: whether to add local writes.
        public init(
            caseID: String = "lifecycle/001-recording", session: RecordedSession? = nil, writes: Bool = false, world: RecordedWorld? = nil
        ) {
            self.caseID = caseID
            self.session = session
            self.writes = writes
            self.world = world
        }
    }

    /// A converted transcript and what it could not carry.
    public struct Result: Sendable, Hashable {
        /// The transcript document (render it with `CanonicalJSON.render`).
        public var json: JSONValue
        /// The recorded exchange each rpc step came from, by step number.
        public var exchangeOfStep: [Int: Int]
        /// The local write steps, by step number, with the exchange of the push that carries them.
        public var writeOfStep: [Int: Int]
        /// The server steps the world added, by step number, with the exchange they precede (0 for the history).
        public var worldOfStep: [Int: Int] = [:]
        /// Exchanges left out, with the reason.
        public var omitted: [Omission]
    }

    /// An exchange the transcript leaves out.
    public struct Omission: Sendable, Hashable {
        /// The exchange number.
        public var exchange: Int
        /// Why.
        public var reason: String
    }

    /// Converts a recording.
    /// - Parameters:
    ///   - recording: the recording.
    ///   - options: what to convert.
    /// - Returns: the transcript document and its provenance.
    public static func convert(_ recording: RecordingContents, options: Options = Options()) -> Result {
        let own = options.session ?? recording.sessions.first ?? RecordedSession(user: nil, client: nil)
        let kept = recording.exchanges.filter { options.session == nil || RecordedSession(of: $0) == options.session }
        var steps: [JSONValue] = []
        var exchangeOfStep: [Int: Int] = [:]
        var writeOfStep: [Int: Int] = [:]
        var omitted: [Omission] = []
        var written = Set<String>()
        var worldOfStep: [Int: Int] = [:]
        func world(_ changes: [WorldChange], before exchange: Int) {
            for change in changes {
                steps.append(serverStep(change, n: steps.count + 1))
                worldOfStep[steps.count] = exchange
            }
        }
        world(options.world?.history ?? [], before: 0)
        for exchange in kept {
            world(options.world?.changes[exchange.number] ?? [], before: exchange.number)
            guard exchange.rpc == "pull" || exchange.rpc == "push" else {
                omitted.append(Omission(exchange: exchange.number, reason: "not a pull or push (\(exchange.method) \(exchange.path))"))
                continue
            }
            let lost = exchange.status == TranscriptToRecording.lostAnswer
            guard case .object = exchange.request, lost || exchange.response.objectValue != nil else {
                omitted.append(Omission(exchange: exchange.number, reason: "a request or response body that is not a JSON object"))
                continue
            }
            var step: JSONObject =
                lost
                ? ["kind": "fault", "fault": "drop-ack", "target": .string(exchange.rpc), "request": exchange.request]
                : ["kind": "rpc", "rpc": .string(exchange.rpc), "request": exchange.request, "response": exchange.response]
            if exchange.status != 200 && !lost { step["status"] = .number(JSONNumber(exchange.status)) }
            let session = RecordedSession(of: exchange)
            if session != own {
                guard !lost, let user = session.user, let client = session.client else {
                    omitted.append(
                        Omission(
                            exchange: exchange.number, reason: "another session's lost answer, or a session whose user or client is unknown"
                        ))
                    continue
                }
                step["caller"] = ["client": .string(client), "user": .string(user)]
            }
            if options.writes && exchange.rpc == "push" && session == own {
                for mutation in exchange.request["batch"]?["mutations"]?.arrayValue ?? [] {
                    guard let id = mutation["mutation_id"]?.stringValue, written.insert(id).inserted,
                        let write = localStep(mutation, n: steps.count + 1)
                    else { continue }
                    steps.append(write)
                    writeOfStep[steps.count] = exchange.number
                }
            }
            step["n"] = .number(JSONNumber(steps.count + 1))
            steps.append(.object(step))
            exchangeOfStep[steps.count] = exchange.number
        }
        let schemaVersion = kept.lazy.compactMap { $0.request["schema_version"]?.numberValue?.intValue }.first ?? 1
        var notes: [JSONValue] = [
            .string("converted by accord from a recording of \(recording.header.upstream) started \(recording.header.startedAt)"),
            "the server configuration is inferred from the recorded requests",
        ]
        if let world = options.world {
            notes.append(
                .string(
                    "\(worldOfStep.count) server steps are inferred from the recording: what happened on the service outside it (its history, other writers, fillers for writes no answer shows)"
                ))
            let stepOfExchange = Dictionary(exchangeOfStep.map { ($0.value, $0.key) }, uniquingKeysWith: min)
            for (exchange, reason) in world.notInferable.sorted(by: { $0.key < $1.key }) {
                let step = stepOfExchange[exchange].map { "step \($0)" } ?? "a left-out step"
                notes.append(.string("\(step) (exchange \(exchange)) is not inferable where it differs: \(reason)"))
            }
        }
        let server = options.world?.server ?? ServerInference.config(from: kept)
        let context: JSONValue = [
            "client_id": .string(own.client ?? "unknown-client"), "user_id": .string(own.user ?? "unknown-user"),
            "schema_version": .number(JSONNumber(schemaVersion)), "notes": .array(notes), "server": ServerInference.json(server),
        ]
        let json: JSONValue = [
            "case": .string(options.caseID), "cites": [.string(recordedCite)], "context": context, "fencing": "visibility-horizon",
            "postconditions": [], "priority": "P2", "status": "proposed", "steps": .array(steps),
            "title": .string("Recorded traffic of \(own)"),
        ]
        return Result(json: json, exchangeOfStep: exchangeOfStep, writeOfStep: writeOfStep, worldOfStep: worldOfStep, omitted: omitted)
    }

    /// The cite a transcript converted from a recording carries: its golden seqs and times are a
    /// recorded service's, so a replay judges them by order and bijection (`Transcript.isRecorded`).
    public static let recordedCite = "accord:recording"

    /// A world change as a transcript's server step.
    static func serverStep(_ change: WorldChange, n: Int) -> JSONValue {
        var step: JSONObject = ["kind": "server", "n": .number(JSONNumber(n))]
        switch change.operation {
        case .reap:
            step["op"] = "reap"
        case .delete:
            step["op"] = "delete"
            step["actor"] = .string(WorldChange.actor)
            step["table"] = .string(change.table)
            step["pk"] = .string(change.pk)
        case .upsert(let columns):
            step["op"] = "upsert"
            step["actor"] = .string(WorldChange.actor)
            step["table"] = .string(change.table)
            step["pk"] = .string(change.pk)
            step["columns"] = .object(columns)
            if let hlc = change.hlc { step["hlc"] = .string(hlc) }
        }
        return .object(step)
    }

    /// The local write step a pushed mutation implies, or nil when it has no usable shape.
    static func localStep(_ mutation: JSONValue, n: Int) -> JSONValue? {
        guard let id = mutation["mutation_id"]?.stringValue, let op = mutation["op"]?.stringValue,
            let table = mutation["table"]?.stringValue, let pk = mutation["pk"]?.stringValue
        else { return nil }
        var step: JSONObject = [
            "kind": "local", "n": .number(JSONNumber(n)), "mutation_id": .string(id), "op": .string(op), "table": .string(table),
            "pk": .string(pk), "columns": .object(mutation["columns"]?.objectValue ?? JSONObject()),
        ]
        if let precondition = mutation["precondition"]?.objectValue { step["precondition"] = .object(precondition) }
        if let transforms = mutation["transforms"]?.objectValue { step["transforms"] = .object(transforms) }
        return .object(step)
    }

    /// A case id for a recording file: `lifecycle/<NNN>-recording-<slug of the file name>`.
    /// - Parameters:
    ///   - file: the recording's file name or path.
    ///   - index: the number, from 1.
    /// - Returns: a case id the transcript grammar accepts.
    public static func caseID(for file: String, index: Int = 1) -> String {
        let name = file.split(separator: "/").last.map(String.init) ?? file
        let stem = name.split(separator: ".").first.map(String.init) ?? name
        var slug = ""
        for character in stem.lowercased() {
            if character.isASCII && (character.isLetter || character.isNumber) {
                slug.append(character)
            } else if !slug.isEmpty && slug.last != "-" {
                slug.append("-")
            }
        }
        while slug.hasSuffix("-") { slug.removeLast() }
        let number = String(repeating: "0", count: max(0, 3 - String(index % 1000).count)) + String(index % 1000)
        return "lifecycle/\(number)-recording" + (slug.isEmpty ? "" : "-" + slug)
    }
}
