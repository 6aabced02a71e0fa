import Corpus
import JSON
import PowerSyncWire

extension PowerSync.Trace {
    /// One event of a PowerSync trace as the checker is fed it, payloads still JSON: a sync stream
    /// opening (its request), one NDJSON line of it, its end, or a write-checkpoint or
    /// checkpoint-request exchange.
    public struct Event: Sendable {
        /// What happened.
        public enum Payload: Sendable {
            /// `POST /sync/stream` was sent with this body.
            case streamOpened(request: JSONValue)
            /// One line of the NDJSON answer.
            case line(JSONValue)
            /// The stream ended.
            case streamClosed
            /// `POST /sync/checkpoint-request` and its answer.
            case checkpointRequest(request: JSONValue, response: JSONValue)
            /// `GET /write-checkpoint2.json` (its parameters as an object) and its answer.
            case writeCheckpoint(request: JSONValue, response: JSONValue)
            /// The source side states the id the service holds, as an earlier session left it: a
            /// client's counter, or with no client the user's own (`checkpoint_request` and
            /// `write_checkpoint` source changes). Nothing on the wire.
            case held(clientID: String?, id: String)
        }

        /// Where it is: the step, and for a line its 1-based NDJSON line.
        public var location: StepLocation
        /// What happened.
        public var payload: Payload

        /// Makes an event.
        public init(location: StepLocation, payload: Payload) {
            self.location = location
            self.payload = payload
        }

        /// The events of a transcript's steps, in order: each sync stream as its opening, one
        /// event per line (numbered from 1 within the stream) and its end.
        /// - Returns: the events.
        public static func events(of steps: [PowerSync.Step]) -> [Event] {
            var events: [Event] = []
            for step in steps {
                let location = StepLocation(number: step.n, label: step.label)
                switch step.action {
                case .syncStream(let request, let lines):
                    events.append(Event(location: location, payload: .streamOpened(request: request)))
                    for (index, line) in lines.enumerated() {
                        var at = location
                        at.streamLine = index + 1
                        events.append(Event(location: at, payload: .line(line)))
                    }
                    events.append(Event(location: location, payload: .streamClosed))
                case .checkpointRequest(let request, let response):
                    events.append(Event(location: location, payload: .checkpointRequest(request: request, response: response)))
                case .writeCheckpoint(let request, let response):
                    events.append(Event(location: location, payload: .writeCheckpoint(request: request, response: response)))
                case .client(let client):
                    // A client step's checkpoint exchange is on the service's wire; the rest is the client lane's.
                    switch client.checkpointCall {
                    case .checkpointRequest(let own)?:
                        events.append(
                            Event(location: location, payload: .checkpointRequest(request: own.request, response: own.response)))
                    case .writeCheckpoint(let written)?:
                        events.append(
                            Event(location: location, payload: .writeCheckpoint(request: written.request, response: written.response)))
                    case nil: continue
                    }
                case .source(let commit):
                    // Source side: nothing on the wire, but the ids it says the service holds.
                    events += held(in: commit).map { Event(location: location, payload: $0) }
                case .replicate:
                    continue
                }
            }
            return events
        }
    }
}

extension PowerSync.Trace.Event {
    /// The ids a source commit says the service holds; none for a commit inferred from the
    /// answers it would then be judged against.
    /// - Returns: one `held` payload per `checkpoint_request` or `write_checkpoint` change.
    public static func held(in commit: SourceCommit) -> [Payload] {
        if commit.inferred { return [] }
        return commit.changes.compactMap { change in
            switch change {
            case .checkpointRequest(_, let client, let id): .held(clientID: client, id: id)
            case .writeCheckpoint(_, let id): .held(clientID: nil, id: id)
            default: nil
            }
        }
    }
}

extension PowerSync.Trace {
    /// A PowerSync event whose payload decoded strictly; what the PS rules fold over.
    public enum Observation: Sendable {
        /// A sync stream opened; nil when its request did not decode (the client's positions are then unknown).
        case streamOpened(SyncStreamRequest?)
        /// One decoded line.
        case line(SyncLine)
        /// The stream ended.
        case streamClosed
        /// A checkpoint request and its answer.
        case checkpointRequest(CheckpointRequest, CheckpointRequestAnswer)
        /// A write checkpoint and its answer.
        case writeCheckpoint(WriteCheckpointRequest, WriteCheckpointAnswer)
        /// An id the source side says the service holds for a client (nil: the user's own counter).
        case held(clientID: String?, id: OpID)
    }
}
