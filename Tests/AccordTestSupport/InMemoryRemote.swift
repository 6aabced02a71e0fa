import ReferenceClient

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
