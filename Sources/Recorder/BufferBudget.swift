import Synchronization

/// The request bytes all of a proxy's connections hold at once, against one limit: bytes
/// received and not yet parsed into a request, a chunked body being decoded, and the bodies of
/// requests being forwarded. The event loops charge what they receive and refund what they
/// let go, from their own threads, so the count is behind a lock.
///
/// A connection that takes the total past the limit while a request arrives is answered 503.
/// One that reads pipelined requests ahead, behind an exchange in progress, stops reading
/// (its client waits on TCP) once the total reaches three quarters of the limit, which leaves
/// the rest to requests arriving. Bytes already received are always charged, so the total can
/// pass the limit by at most one receive (64 KiB) per connection.
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
    /// - Parameter bytes: the bytes newly held.
    /// - Returns: whether the total is still within the limit.
    func charge(_ bytes: Int) -> Bool {
        count.withLock { count in
            count.held += bytes
            count.peak = max(count.peak, count.held)
            return count.held <= limit
        }
    }

    /// Gives back bytes a connection no longer holds.
    func refund(_ bytes: Int) {
        count.withLock { $0.held -= bytes }
    }

    /// Whether connections may read pipelined requests ahead: the total is under three
    /// quarters of the limit.
    var allowsReadAhead: Bool { count.withLock { $0.held < limit / 4 * 3 } }

    /// The bytes held now.
    var held: Int { count.withLock { $0.held } }

    /// The most bytes held at once so far.
    var peak: Int { count.withLock { $0.peak } }
}
