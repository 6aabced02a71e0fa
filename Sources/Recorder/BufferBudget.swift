import Synchronization

/// The request bytes all of a proxy's connections hold at once, against one limit: bytes
/// received and not yet parsed into a request (a buffer over 1 MiB by its capacity), a request
/// whose head declared its length counted whole from its head on and twice (what it costs once
/// forwarded), a chunked body being decoded, and a body being forwarded twice (its own and
/// libcurl's copy). The event loops
/// charge what they hold and refund what they let go, from their own threads, so the count is
/// behind a lock.
///
/// While the total is past three quarters of the limit (`arrivingLimit`), a request arriving
/// is answered 503, a new one at its head, one whose body is still coming when its next bytes
/// arrive: bodies that never finish cannot take more, and the quarter left covers the requests
/// being forwarded and recorded. A connection reading pipelined requests ahead, behind an
/// exchange in progress, stops reading (its client waits on TCP) one receive short of three
/// quarters, so that reading ahead never refuses a request arriving. Bytes already received are always charged, so the total can
/// pass the limit by one receive (64 KiB) per connection and the second copy of a body read
/// ahead.
final class BufferBudget: Sendable {
    private struct Count {
        var held = 0
        var peak = 0
    }

    /// The most bytes held at once before connections are refused or stop reading.
    let limit: Int
    private let count = Mutex(Count())

    /// A budget of `limit` bytes.
    init(limit: Int) { self.limit = limit }

    /// Charges bytes a connection now holds.
    /// - Parameters:
    ///   - bytes: the bytes newly held.
    ///   - bound: the total they must stay within: the limit, or `arrivingLimit` for a request
    ///     arriving.
    /// - Returns: whether the total is still within `bound`.
    func charge(_ bytes: Int, within bound: Int) -> Bool {
        count.withLock { count in
            count.held += bytes
            count.peak = max(count.peak, count.held)
            return count.held <= bound
        }
    }

    /// Gives back bytes a connection no longer holds.
    func refund(_ bytes: Int) {
        count.withLock { $0.held -= bytes }
    }

    /// Whether connections may read pipelined requests ahead: one more receive (64 KiB) keeps
    /// the total within `arrivingLimit`, so that reading ahead never refuses a request arriving.
    var allowsReadAhead: Bool { count.withLock { $0.held + Self.receive <= arrivingLimit } }

    /// The most one receive takes.
    static var receive: Int { 64 * 1024 }

    /// The most that requests still arriving may hold with everything else: three quarters of
    /// the limit, so that bodies that never finish (a slow or hostile client) leave a quarter
    /// to the requests being forwarded and recorded, whose copies the count only estimates.
    var arrivingLimit: Int { limit / 4 * 3 }

    /// The bytes held now.
    var held: Int { count.withLock { $0.held } }

    /// The most bytes held at once so far.
    var peak: Int { count.withLock { $0.peak } }
}
