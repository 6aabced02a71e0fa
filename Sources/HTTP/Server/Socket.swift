import Glibc

/// Thin wrappers over the POSIX socket calls the server makes.
enum Socket {
    enum Readiness { case readable, timeout }

    /// Binds and listens on a numeric address.
    static func listen(host: String, port: UInt16, backlog: Int32 = 128) throws(HTTPError) -> (Int32, HTTPEndpoint) {
        let numeric = host == "localhost" ? "127.0.0.1" : host
        let ipv6 = numeric.contains(":")
        let family = ipv6 ? AF_INET6 : AF_INET
        let made =
            ipv6
            ? socketAddress(sockaddr_in6(), family: family, numeric: numeric, port: port, \.sin6_family, \.sin6_port, \.sin6_addr)
            : socketAddress(sockaddr_in(), family: family, numeric: numeric, port: port, \.sin_family, \.sin_port, \.sin_addr)
        guard let (address, length) = made else { throw .socket("not a numeric \(ipv6 ? "IPv6" : "IPv4") address: \(host)") }
        var storage = address
        let fd = socket(family, Int32(SOCK_STREAM.rawValue) | Int32(SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw .socket("socket: \(errorText())") }
        var one: Int32 = 1
        _ = setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
        let bound = withUnsafePointer(to: &storage) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, length) } }
        guard bound == 0 else {
            let text = errorText()
            close(fd)
            throw .socket("bind \(host):\(port): \(text)")
        }
        guard Glibc.listen(fd, backlog) == 0 else {
            let text = errorText()
            close(fd)
            throw .socket("listen: \(text)")
        }
        var local = sockaddr_storage()
        var localLength = socklen_t(MemoryLayout<sockaddr_storage>.size)
        _ = withUnsafeMutablePointer(to: &local) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &localLength) }
        }
        return (fd, endpoint(local))
    }

    /// A numeric address of one family (`sockaddr_in` or `sockaddr_in6`, named by its family,
    /// port and host fields) as a `sockaddr_storage` and its length; nil when `numeric` is not an
    /// address of that family.
    private static func socketAddress<Address, Host>(
        _ empty: Address, family: Int32, numeric: String, port: UInt16, _ familyField: WritableKeyPath<Address, sa_family_t>,
        _ portField: WritableKeyPath<Address, in_port_t>, _ hostField: WritableKeyPath<Address, Host>
    ) -> (sockaddr_storage, socklen_t)? {
        var address = empty
        address[keyPath: familyField] = sa_family_t(family)
        address[keyPath: portField] = port.bigEndian
        let parsed = withUnsafeMutableBytes(of: &address[keyPath: hostField]) { inet_pton(family, numeric, $0.baseAddress) }
        guard parsed == 1 else { return nil }
        var storage = sockaddr_storage()
        withUnsafeMutableBytes(of: &storage) { raw in withUnsafeBytes(of: address) { raw.copyMemory(from: $0) } }
        return (storage, socklen_t(MemoryLayout<Address>.size))
    }

    /// Accepts one connection; nil when accept failed.
    static func accept(_ listener: Int32) -> (Int32, HTTPEndpoint)? {
        var storage = sockaddr_storage()
        var length = socklen_t(MemoryLayout<sockaddr_storage>.size)
        let fd = withUnsafeMutablePointer(to: &storage) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { Glibc.accept(listener, $0, &length) }
        }
        guard fd >= 0 else { return nil }
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return (fd, endpoint(storage))
    }

    /// The numeric address and port of a socket address.
    static func endpoint(_ storage: sockaddr_storage) -> HTTPEndpoint {
        var text = [CChar](repeating: 0, count: Int(INET6_ADDRSTRLEN) + 1)
        var storage = storage
        if Int32(storage.ss_family) == AF_INET6 {
            let address = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in6.self) }
            var raw = address.sin6_addr
            _ = inet_ntop(AF_INET6, &raw, &text, socklen_t(text.count))
            return HTTPEndpoint(
                host: String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
                port: UInt16(bigEndian: address.sin6_port))
        }
        let address = withUnsafeBytes(of: &storage) { $0.load(as: sockaddr_in.self) }
        var raw = address.sin_addr
        _ = inet_ntop(AF_INET, &raw, &text, socklen_t(text.count))
        return HTTPEndpoint(
            host: String(decoding: text.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self),
            port: UInt16(bigEndian: address.sin_port))
    }

    /// Sets the send timeout and disables Nagle's algorithm on an accepted connection.
    static func configure(_ fd: Int32, writeTimeout: Duration) {
        let milliseconds = Self.milliseconds(writeTimeout)
        var timeout = timeval(tv_sec: milliseconds / 1000, tv_usec: (milliseconds % 1000) * 1000)
        _ = setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var one: Int32 = 1
        _ = setsockopt(fd, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    }

    /// Waits until `fd` is readable (or hung up) or the time runs out.
    static func waitReadable(_ fd: Int32, milliseconds: Int) -> Readiness {
        var descriptor = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
        while true {
            let result = poll(&descriptor, 1, Int32(clamping: max(0, milliseconds)))
            if result < 0 && errno == EINTR { continue }
            return result == 0 ? .timeout : .readable
        }
    }

    /// Appends the bytes one `recv` gives (at most the scratch space's size) to `buffer`; returns
    /// the count, 0 at end of stream, -1 on error.
    static func receive(_ fd: Int32, into buffer: inout [UInt8], scratch: UnsafeMutableRawBufferPointer) -> Int {
        // Receive into scratch space and append only what arrived: growing the buffer by a
        // read's worth of zeros per read costs milliseconds per request in debug builds.
        var received = -1
        while true {
            received = recv(fd, scratch.baseAddress, scratch.count, 0)
            if received < 0 && errno == EINTR { continue }
            break
        }
        if received > 0 { buffer.append(contentsOf: UnsafeRawBufferPointer(rebasing: scratch[0..<received])) }
        return received
    }

    /// Sends every byte; false when the peer is gone or the send timed out.
    static func sendAll(_ fd: Int32, _ bytes: [UInt8]) -> Bool {
        var offset = 0
        while offset < bytes.count {
            let sent = bytes.withUnsafeBytes { raw in
                send(fd, raw.baseAddress.map { $0 + offset }, bytes.count - offset, Int32(MSG_NOSIGNAL))
            }
            if sent < 0 && errno == EINTR { continue }
            guard sent > 0 else { return false }
            offset += sent
        }
        return true
    }

    /// Shuts down the write side, then reads and discards input until end of stream, the time
    /// runs out, or `maximum` bytes were discarded.
    static func drain(_ fd: Int32, for duration: Duration, maximum: Int) {
        _ = shutdown(fd, Int32(SHUT_WR))
        let clock = ContinuousClock()
        let end = clock.now + duration
        var discarded = 0
        withUnsafeTemporaryAllocation(byteCount: 64 * 1024, alignment: 16) { scratch in
            while discarded < maximum {
                let remaining = end - clock.now
                guard remaining > .zero, waitReadable(fd, milliseconds: milliseconds(remaining)) == .readable else { return }
                let count = recv(fd, scratch.baseAddress, scratch.count, 0)
                if count < 0 && errno == EINTR { continue }
                guard count > 0 else { return }
                discarded += count
            }
        }
    }

    /// Whole milliseconds of a duration, rounded up.
    static func milliseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        return Int(seconds) * 1000 + Int((attoseconds + 999_999_999_999_999) / 1_000_000_000_000_000)
    }

    static func errorText() -> String { String(cString: strerror(errno)) }
}
