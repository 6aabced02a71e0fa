import Corpus
import JSON
import KizunaWire
import ServerContract

/// A server under test wrapped so that one pull answer loses a row: the `nth` pull answer that
/// carries rows (from 1) is sent without its first row, everything else is forwarded unchanged.
/// The bug of a server whose page query drops a row at a boundary: a replay must fail at that
/// exchange, not later.
public actor DroppedRowServer: WrappingTarget {
    /// The wrapped server.
    public nonisolated let inner: any KizunaSync.ServerTarget
    private let nth: Int
    private var withRows = 0

    /// Wraps a server.
    /// - Parameters:
    ///   - inner: the server.
    ///   - nth: which pull answer with rows loses its first row.
    public init(_ inner: any KizunaSync.ServerTarget, nth: Int) {
        self.inner = inner
        self.nth = nth
    }

    /// Pulls, and drops the first row of the `nth` answer that has rows.
    public func pull(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply {
        var reply = try await inner.pull(body, as: identity)
        if let rows = reply.body["rows"]?.arrayValue, !rows.isEmpty {
            withRows += 1
            if withRows == nth {
                reply.body = reply.body.replacing(at: JSONPointer(tokens: ["rows"]), with: .array(Array(rows.dropFirst())))
            }
        }
        return reply
    }
}
