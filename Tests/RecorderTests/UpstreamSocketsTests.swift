import Glibc
import Testing

@testable import Recorder

@Suite("Upstream sockets parked between transfers")
struct UpstreamSocketsTests {
    /// A connected pair of Unix stream sockets: the first is "libcurl's", the second its peer.
    static func pair() throws -> (Int32, Int32) {
        var fds: [Int32] = [0, 0]
        try #require(socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0, &fds) == 0)
        return (fds[0], fds[1])
    }

    /// Reports `fd` opened, waited on for reading, then no longer waited on: parked.
    static func park(_ fd: Int32, _ sockets: inout UpstreamSockets, _ poll: EventPoll) {
        sockets.apply(fd, .opened, to: poll)
        sockets.apply(fd, .read, to: poll)
        sockets.apply(fd, .remove, to: poll)
    }

    /// The descriptors the poll reports ready now.
    static func ready(_ poll: EventPoll) -> [Int32] {
        var fds: [Int32] = []
        poll.wait(milliseconds: 50) { fd, _ in fds.append(fd) }
        return fds
    }

    @Test("a parked socket stays registered: the next read interest needs no new registration, and its peer's data wakes the poll")
    func parkedStaysRegistered() throws {
        let poll = try #require(EventPoll())
        var sockets = UpstreamSockets()
        let (fd, peer) = try Self.pair()
        defer { close(fd); close(peer) }
        Self.park(fd, &sockets, poll)
        #expect(sockets.isParked(fd) && !sockets.isWatched(fd))
        _ = send(peer, "x", 1, 0)
        // Still registered while parked: the data is reported, and unparking removes it.
        #expect(Self.ready(poll) == [fd])
        sockets.unpark(fd, from: poll)
        #expect(Self.ready(poll).isEmpty, "removed from the poll after its unasked activity")
        sockets.apply(fd, .read, to: poll)
        #expect(sockets.isWatched(fd))
        #expect(Self.ready(poll) == [fd])
    }

    @Test("a socket libcurl did not report opening is removed, not parked")
    func unknownSocketRemoved() throws {
        let poll = try #require(EventPoll())
        var sockets = UpstreamSockets()
        let (fd, peer) = try Self.pair()
        defer { close(fd); close(peer) }
        sockets.apply(fd, .read, to: poll)
        sockets.apply(fd, .remove, to: poll)
        #expect(!sockets.isParked(fd))
        _ = send(peer, "x", 1, 0)
        #expect(Self.ready(poll).isEmpty)
    }

    @Test("a number closed while parked and opened again is registered anew, even for the same interest")
    func reusedNumber() throws {
        let poll = try #require(EventPoll())
        var sockets = UpstreamSockets()
        let (fd, peer) = try Self.pair()
        Self.park(fd, &sockets, poll)
        // Closed without `.closing` (the worst case): the kernel drops the registration.
        close(fd)
        close(peer)
        let (again, againPeer) = try Self.pair()
        defer { close(again); close(againPeer) }
        // The new pair takes the lowest free numbers: force the old number if it did not.
        var reused = again
        if again != fd {
            try #require(dup2(again, fd) == fd)
            reused = fd
        }
        defer { if reused != again { close(reused) } }
        sockets.apply(reused, .opened, to: poll)
        sockets.apply(reused, .read, to: poll)
        _ = send(againPeer, "x", 1, 0)
        #expect(Self.ready(poll) == [reused])
    }

    @Test("closing a parked socket removes it from the poll and from every table")
    func closingParked() throws {
        let poll = try #require(EventPoll())
        var sockets = UpstreamSockets()
        let (fd, peer) = try Self.pair()
        defer { close(peer) }
        Self.park(fd, &sockets, poll)
        sockets.apply(fd, .closing, to: poll)
        #expect(!sockets.isParked(fd) && !sockets.isWatched(fd))
        // Still open here (libcurl closes it after the callback): no longer reported.
        _ = send(peer, "x", 1, 0)
        #expect(Self.ready(poll).isEmpty)
        close(fd)
    }
}
