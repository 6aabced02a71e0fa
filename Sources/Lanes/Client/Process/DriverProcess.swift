import CLinux
import Foundation
import Glibc
import Harness
import Synchronization

/// A driver's process tree, owned whole: `/bin/sh -c <command>` started by `Spawn` at the head
/// of a process group of its own, with a clean signal mask and only its three pipes open, and a
/// session marker in its environment that its descendants inherit. `sweep()` kills the group and every process that
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
        let pid: pid_t
        do {
            pid = try Spawn.start(
                "/bin/sh", ["-c", command], environment: env, stdin: .from(stdin), stdout: .from(stdout), stderr: .from(stderr),
                ownGroup: true)
        } catch {
            throw RunError.usage("--client '\(command)': the driver did not start: \(String(cString: strerror(error.code.rawValue)))")
        }
        self.pid = pid
        self.marker = marker
        Thread.detachNewThread { [self] in
            // A shell that cannot be waited for ended in a way nobody saw: abnormally (0x7f).
            let raw = Spawn.wait(pid) ?? 0x7f
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
        var killed: Set<pid_t> = []
        var strays: Set<pid_t> = []
        // A stray may fork while it is being found: look again until a pass finds none new. A
        // process killed in an earlier pass may still be listed until it dies; it counts once.
        for _ in 0..<8 {
            let found = Self.marked(marker).filter { $0 != pid && !killed.contains($0) }
            if found.isEmpty { break }
            for process in found {
                Glibc.kill(process, SIGKILL)
                killed.insert(process)
                if getpgid(process) != pid { strays.insert(process) }
            }
        }
        return strays.count
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
}
