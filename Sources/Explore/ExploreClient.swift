import AccordDriver
import Corpus
import JSON
import KizunaWire
import ServerContract

/// A client the realizer plays a driven device 0 through (`accord explore --client`): the
/// reference client behind its driver, so that the golden requests of a client scenario are what
/// a correct client sends, and the golden answers what the reference server says to them.
package protocol ExploreClient: Sendable {
    /// Has the client write a transcript's local step (in `atomicGroup`, if any).
    /// - Returns: nil when the write was stored, else the code the client refused it with.
    func write(_ local: JSONObject, atomicGroup: String?) async throws(TargetError) -> String?

    /// Has the client push, or pull one page; the one request it sends, if any, is answered as
    /// `serve` says.
    /// - Returns: the request and how it was answered, or nil when the client sent nothing (it
    ///   had nothing to push, or is soft-blocked).
    func send(_ rpc: RPCKind, serve: @escaping ExploreServe) async throws(TargetError) -> ExploreSent?

    /// What the client holds now.
    func state() async throws(TargetError) -> StateResult
}

/// Answers a driven client's request (the realizer's reference server behind it).
package typealias ExploreServe = @Sendable (JSONValue) async throws(TargetError) -> ExploreServed

/// How a driven client's request was answered.
package enum ExploreServed: Sendable, Hashable {
    /// This status and body.
    case reply(RPCReply)
    /// No answer: the connection closed after the request was read.
    case drop
}

/// One request a driven client sent, and how it was answered.
package struct ExploreSent: Sendable, Hashable {
    package var request: JSONValue
    package var served: ExploreServed

    package init(request: JSONValue, served: ExploreServed) {
        self.request = request
        self.served = served
    }
}
