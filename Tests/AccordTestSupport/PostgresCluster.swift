import Foundation

#if canImport(Glibc)
    import Glibc
#endif

/// A throwaway PostgreSQL cluster for a test: `initdb` in a temporary folder, one server on
/// 127.0.0.1 and a free port, run as a non-root OS user (the `postgres` user when the test runs as
/// root, through `setpriv`, which execs, so the pid is the server's), stopped by its pid with a
/// fast shutdown when the test ends or the object goes away, and its folder removed; should the
/// test process die first, the kernel sends the server SIGINT (its parent-death signal).
public final class PostgresCluster: @unchecked Sendable {
    /// The port it listens on, on 127.0.0.1.
    public let port: Int
    /// The server binaries' folder.
    public let binaries: String
    private let folder: String
    private let server: ChildProcess
    private let stopped = NSLock()
    private var isStopped = false

    /// A URL for a database of this cluster, as the superuser `postgres`.
    /// - Parameter database: the database name.
    /// - Returns: the URL.
    public func url(_ database: String) -> String { "postgres://postgres@127.0.0.1:\(port)/\(database)" }

    /// Makes and starts a cluster; returns once the server accepts connections.
    /// - Throws: `ClusterError` when the binaries are missing or initdb or the server fails.
    public init() async throws {
        binaries = try Self.binaryFolder()
        let user = getuid() == 0 ? "postgres" : nil
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("accord-pg-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        if let user {
            guard let account = getpwnam(user) else { throw ClusterError("no OS user \(user) to run PostgreSQL as (it refuses root)") }
            guard chown(folder, account.pointee.pw_uid, account.pointee.pw_gid) == 0 else { throw ClusterError("chown \(folder) failed") }
        }
        let initdb: (status: Int32, output: String)
        do {
            initdb = try await Self.run(
                Self.command(
                    user, binaries + "/initdb",
                    ["-D", folder + "/data", "-U", "postgres", "-A", "trust", "--no-sync", "-E", "UTF8", "--locale=C"]))
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
        guard initdb.status == 0 else {
            try? FileManager.default.removeItem(atPath: folder)
            throw ClusterError("initdb failed: \(initdb.output)")
        }
        port = try Self.freePort()
        server = ChildProcess()
        let (executable, arguments) = Self.command(
            user, binaries + "/postgres",
            [
                "-D", folder + "/data", "-p", String(port), "-c", "listen_addresses=127.0.0.1", "-c", "unix_socket_directories=\(folder)",
                "-c", "fsync=off", "-c", "synchronous_commit=off", "-c", "full_page_writes=off",
            ])
        server.executableURL = URL(fileURLWithPath: executable)
        server.arguments = arguments
        let log = Pipe()
        server.standardError = log
        server.standardOutput = FileHandle.nullDevice
        server.standardInput = FileHandle.nullDevice
        do {
            try await Self.keep(server)
        } catch {
            try? FileManager.default.removeItem(atPath: folder)
            throw error
        }
        let ready = await Self.waitForReady(log.fileHandleForReading, stopping: server)
        guard ready else {
            stop()
            throw ClusterError("postgres did not start on port \(port) within \(Self.startLimit) s")
        }
    }

    /// How long the server may take to accept connections.
    static let startLimit = 60

    /// Starts the server from a thread of its own that then waits for it to exit: the parent-death
    /// signal follows the thread that spawned the child, so that thread must live as long as the
    /// server (a concurrency-pool thread may be retired while the test awaits).
    private static func keep(_ server: ChildProcess) async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, Error>) in
            Thread.detachNewThread {
                do {
                    try server.run()
                } catch {
                    continuation.resume(throwing: error)
                    return
                }
                continuation.resume()
                server.waitUntilExit()
            }
        }
    }

    deinit { stop() }

    /// Stops the server by its pid (SIGINT: fast shutdown) and removes the folder; safe to call twice.
    public func stop() {
        stopped.lock()
        defer { stopped.unlock() }
        guard !isStopped else { return }
        isStopped = true
        if server.isRunning {
            server.send(SIGINT)
            server.waitUntilExit()
        }
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// Runs psql against a database of the cluster, failing on the first SQL error.
    /// - Parameters:
    ///   - database: the database.
    ///   - arguments: psql's further arguments, e.g. `["-c", "create database x"]` or `["-f", path]`.
    /// - Throws: `ClusterError` with psql's output when it fails.
    public func psql(_ database: String, _ arguments: [String]) async throws {
        let result = try await Self.run(
            (
                binaries + "/psql",
                ["-X", "-q", "-v", "ON_ERROR_STOP=1", "-h", "127.0.0.1", "-p", String(port), "-U", "postgres", "-d", database] + arguments
            ))
        guard result.status == 0 else { throw ClusterError("psql \(arguments.joined(separator: " ")) failed: \(result.output)") }
    }

    /// The command line that runs a binary as `user` (when the test runs as root), with SIGINT as
    /// its parent-death signal, so a server outlives no test process, even a killed one.
    private static func command(_ user: String?, _ executable: String, _ arguments: [String]) -> (String, [String]) {
        let identity = user.map { ["--reuid=\($0)", "--regid=\($0)", "--init-groups"] } ?? []
        return ("/usr/bin/setpriv", identity + ["--pdeathsig", "INT", executable] + arguments)
    }

    private static func binaryFolder() throws -> String {
        let root = "/usr/lib/postgresql"
        let versions = ((try? FileManager.default.contentsOfDirectory(atPath: root)) ?? []).compactMap(Int.init).sorted()
        guard let newest = versions.last, FileManager.default.isExecutableFile(atPath: "\(root)/\(newest)/bin/initdb") else {
            throw ClusterError("no PostgreSQL server under \(root) (scripts/setup installs Debian's postgresql)")
        }
        return "\(root)/\(newest)/bin"
    }

    /// Runs a tool to its end off the concurrency pool (initdb and psql take seconds).
    private static func run(_ command: (String, [String])) async throws -> (status: Int32, output: String) {
        let output = try await PeerProcess.run(command.0, command.1, timeout: 300, directory: "/")
        return (output.status, output.stdout + output.stderr)
    }

    private static func freePort() throws -> Int {
        let socket = Glibc.socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard socket >= 0 else { throw ClusterError("socket failed") }
        defer { close(socket) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(socket, $0, length) } }
        guard bound == 0 else { throw ClusterError("bind failed") }
        let named = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(socket, $0, &length) }
        }
        guard named == 0 else { throw ClusterError("getsockname failed") }
        return Int(UInt16(bigEndian: address.sin_port))
    }

    /// Reads the server's log on its own thread until it says it accepts connections (true) or
    /// ends (false), then keeps draining it so the server never blocks on a full pipe. A server
    /// that says nothing for `startLimit` seconds is interrupted, which ends its log.
    private static func waitForReady(_ log: FileHandle, stopping server: ChildProcess) async -> Bool {
        let ready = NSLock()
        nonisolated(unsafe) var isReady = false
        DispatchQueue.global().asyncAfter(deadline: .now() + .seconds(startLimit)) {
            ready.lock()
            defer { ready.unlock() }
            if !isReady { server.send(SIGINT) }
        }
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            Thread.detachNewThread {
                var seen = Data()
                var resumed = false
                var buffer = [UInt8](repeating: 0, count: 4096)
                while true {
                    let count = buffer.withUnsafeMutableBytes { Glibc.read(log.fileDescriptor, $0.baseAddress, $0.count) }
                    if count <= 0 { break }
                    guard !resumed else { continue }
                    seen.append(contentsOf: buffer[0..<count])
                    if String(decoding: seen, as: UTF8.self).contains("database system is ready to accept connections") {
                        resumed = true
                        ready.lock()
                        isReady = true
                        ready.unlock()
                        continuation.resume(returning: true)
                    }
                }
                if !resumed { continuation.resume(returning: false) }
            }
        }
    }
}

/// A throwaway cluster that could not be made.
public struct ClusterError: Error, CustomStringConvertible {
    /// What failed.
    public var description: String

    init(_ description: String) { self.description = description }
}
