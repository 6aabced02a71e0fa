import CLinux
import Foundation
import Glibc
import Synchronization

/// A driver's process tree, owned whole: `/bin/sh -c <command>` spawned with posix_spawn(3) at
/// the head of a process group of its own, with a clean signal mask and only its three pipes
/// open (every other descriptor of this process closed in the child), and a session marker in its
/// environment that its descendants inherit. `sweep()` kills the group and every process that
/// carries the marker, so a child that left the group (`setsid`, a daemon's double fork) and
/// still holds the driver's pipes goes too. Out of reach: a descendant started with a cleared
/// environment in a session of its own; the reads of its pipes are ended by their own deadlines
/// instead (`ProcessDriver`).
final class DriverProcess: Sendable {
    /// The environment variable that marks a driver's processes; its value names the session.
    static let markerName = "ACCORD_DRIVER_SESSION"

    /// The shell's pid, which is also its process group.
    let pid: pid_t
    /// This session's marker value.
    let marker: String
    /// Set when the shell has been reaped.
    let exited = Latch()
    private let status = Mutex<Int32?>(nil)

    /// Spawns the command with `stdin`, `stdout` and `stderr` as its standard descriptors.
    /// - Throws: `RunError.usage` when the shell cannot be spawned.
    init(command: String, environment: [String: String], stdin: Int32, stdout: Int32, stderr: Int32) throws(RunError) {
        let marker = UUID().uuidString.lowercased()
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        env[Self.markerName] = marker
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_adddup2(&actions, stdin, 0)
        posix_spawn_file_actions_adddup2(&actions, stdout, 1)
        posix_spawn_file_actions_adddup2(&actions, stderr, 2)
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for signal in [SIGPIPE, SIGINT, SIGTERM, SIGQUIT, SIGCHLD, SIGHUP] { sigaddset(&defaults, signal) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))
        let arguments = ["/bin/sh", "-c", command]
        let entries = env.map { "\($0.key)=\($0.value)" }
        var spawned: pid_t = 0
        let result =
            Self.withCStrings(arguments) { argv in
                Self.withCStrings(entries) { envp in posix_spawn(&spawned, "/bin/sh", &actions, &attributes, argv, envp) }
            } ?? EINVAL
        let pid = spawned
        guard result == 0 else {
            throw RunError.usage("--client '\(command)': the driver did not start: \(String(cString: strerror(result)))")
        }
        self.pid = pid
        self.marker = marker
        Thread.detachNewThread { [self] in
            var raw: Int32 = 0
            while waitpid(pid, &raw, 0) < 0 && errno == EINTR {}
            status.withLock { $0 = raw }
            exited.set()
        }
    }

    /// How the shell ended, once it has.
    var ending: DriverEnding? {
        guard let raw = status.withLock({ $0 }) else { return nil }
        let signal = raw & 0x7f
        if signal == 0 { return .exited(status: (raw >> 8) & 0xff) }
        if signal != 0x7f { return .signalled(signal) }
        return .abnormal
    }

    /// Whether the shell is still running.
    var isRunning: Bool { !exited.isSet }

    /// SIGKILLs the process group and every process of this user that carries the session's
    /// marker, whichever group or session it moved to; returns how many marked processes were
    /// found outside the group.
    @discardableResult
    func sweep() -> Int {
        Glibc.kill(-pid, SIGKILL)
        if isRunning { Glibc.kill(pid, SIGKILL) }
        var strays = 0
        // A stray may fork while it is being found: look again until a pass finds none.
        for _ in 0..<8 {
            let found = Self.marked(marker).filter { $0 != pid }
            if found.isEmpty { break }
            for process in found {
                Glibc.kill(process, SIGKILL)
                if getpgid(process) != pid { strays += 1 }
            }
        }
        return strays
    }

    /// The pids whose environment holds `ACCORD_DRIVER_SESSION=<marker>` (readable only for this
    /// user's processes, which are the only ones a driver can have started).
    static func marked(_ marker: String) -> [pid_t] {
        let entry = Array("\(markerName)=\(marker)".utf8)
        guard let directory = opendir("/proc") else { return [] }
        defer { closedir(directory) }
        var found: [pid_t] = []
        let own = getpid()
        while let item = readdir(directory) {
            // d_name is read only up to its NUL: a record may end before the array's 256 bytes.
            let name = withUnsafeBytes(of: item.pointee.d_name) { bytes in
                String(decoding: bytes.prefix { $0 != 0 }, as: UTF8.self)
            }
            guard let process = pid_t(name), process != own else { continue }
            let fd = open("/proc/\(name)/environ", O_RDONLY | O_CLOEXEC)
            guard fd >= 0 else { continue }
            var environment: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 16384)
            while true {
                let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
                if count <= 0 { break }
                environment.append(contentsOf: chunk[..<count])
            }
            close(fd)
            if environment.split(separator: 0).contains(where: { $0.elementsEqual(entry) }) { found.append(process) }
        }
        return found
    }

    /// Calls `body` with a NULL-terminated array of C strings, as argv and envp are.
    private static func withCStrings<T>(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> T?) -> T? {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeBufferPointer { buffer in buffer.baseAddress.flatMap(body) }
    }
}
