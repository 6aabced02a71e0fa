/// The two RPCs a client sends.
public enum ClientRPC: String, Sendable, Hashable, CaseIterable {
    /// `POST <base_url>/rest/v1/rpc/pull`.
    case pull
    /// `POST <base_url>/rest/v1/rpc/push`.
    case push
}

/// An HTTP answer: the status and the body bytes.
public struct RemoteReply: Sendable, Hashable {
    /// The HTTP status.
    public var status: Int
    /// The body bytes.
    public var body: [UInt8]

    /// Makes an answer.
    /// - Parameters:
    ///   - status: the HTTP status.
    ///   - body: the body bytes.
    public init(status: Int, body: [UInt8]) {
        self.status = status
        self.body = body
    }
}

/// The server as the engine sees it: one POST per RPC, answered with a status and body, or failing in transport.
public protocol ClientRemote: Sendable {
    /// Sends one RPC body and waits for its answer.
    /// - Parameters:
    ///   - rpc: which RPC.
    ///   - body: the request body (compact canonical JSON).
    /// - Returns: the HTTP status and body.
    /// - Throws: any error for a transport failure (network fault, timeout, connection closed without an answer).
    func send(_ rpc: ClientRPC, body: [UInt8]) async throws -> RemoteReply
}

/// A transport failure of the in-memory remote.
public struct RemoteFailure: Error, CustomStringConvertible, Sendable {
    /// What happened.
    public var description: String

    /// Makes a failure.
    /// - Parameter description: what happened.
    public init(_ description: String) { self.description = description }
}

/// An in-memory remote for tests: answers queued replies in order and records every request.
public actor InMemoryRemote: ClientRemote {
    /// One scripted answer.
    public enum Answer: Sendable {
        /// An HTTP answer.
        case reply(RemoteReply)
        /// A transport failure: no answer.
        case failure(String)
    }

    private var answers: [Answer] = []

    /// Every request sent, in order.
    public private(set) var requests: [(rpc: ClientRPC, body: [UInt8])] = []

    /// Makes an empty remote; a request with no queued answer fails in transport.
    public init() {}

    /// Queues an answer.
    /// - Parameter answer: the answer for the next unanswered request.
    public func enqueue(_ answer: Answer) { answers.append(answer) }

    /// Queues a 200 answer with a JSON body.
    /// - Parameter json: the body text.
    public func enqueue(json: String) { answers.append(.reply(RemoteReply(status: 200, body: Array(json.utf8)))) }

    /// The request bodies sent, as text.
    /// - Returns: the bodies in order.
    public func sentBodies() -> [String] { requests.map { String(decoding: $0.body, as: UTF8.self) } }

    /// Records the request and answers the next queued answer.
    /// - Parameters:
    ///   - rpc: which RPC.
    ///   - body: the request body.
    /// - Returns: the queued reply.
    /// - Throws: `RemoteFailure` for a queued failure or when nothing is queued.
    public func send(_ rpc: ClientRPC, body: [UInt8]) async throws -> RemoteReply {
        requests.append((rpc, body))
        guard !answers.isEmpty else { throw RemoteFailure("no answer queued for \(rpc.rawValue)") }
        switch answers.removeFirst() {
        case .reply(let reply): return reply
        case .failure(let text): throw RemoteFailure(text)
        }
    }
}
