import Foundation
import Harness
import Synchronization

/// libfiu as the storage-fault matrix drives it: the environment that preloads its POSIX wrappers
/// into a driver (what `fiu-run -x` sets), and `fiu-ctrl`, which switches the failure points in a
/// running driver's processes. The runner waits for each `fiu-ctrl` to exit, so a point is on
/// before the next command is sent and off before the next one after the answer.
public struct StorageFailures: Sendable {
    /// The preload libraries of Debian's libfiu0 and fiu-utils.
    public static let preloads = ["/usr/lib/fiu/fiu_run_preload.so", "/usr/lib/fiu/fiu_posix_preload.so"]
    /// The failure points switched on: writes at an offset, fsync, fdatasync, truncation and
    /// rename. Plain `write(2)` is left alone: the driver's answers go to standard output with it.
    public static let points = [
        "posix/io/rw/pwrite", "posix/io/rw/pwritev", "posix/io/rw/ftruncate", "posix/io/sync/fsync", "posix/io/sync/fdatasync",
        "posix/io/dir/rename",
    ]

    /// The control tool.
    let control: String
    /// The run's own folder of the control pipes, made by `init` and removed by `remove()`.
    let folder: String
    /// The prefix of the control pipes (`<prefix>-<pid>.in`), inside `folder`.
    var prefix: String { folder + "/fiu" }

    /// Finds libfiu, makes a folder of the run's own for its control pipes, and checks that it
    /// loads: a shell started with the preloads must get its control pipe. Nothing is left behind
    /// when it throws.
    /// - Throws: `RunError.setup` when a library or `fiu-ctrl` is missing or the preload does not
    ///   load; `RunError.output` when the folder cannot be made.
    public init() async throws(RunError) {
        let fix = "install Debian's fiu-utils and libfiu0 (scripts/setup does)"
        for library in Self.preloads where !FileManager.default.fileExists(atPath: library) {
            throw RunError.setup("--storage-faults: libfiu cannot be loaded: \(library) is missing", fix: fix)
        }
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let found = path.split(separator: ":").map { "\($0)/fiu-ctrl" }.first { FileManager.default.isExecutableFile(atPath: $0) }
        guard let control = found else { throw RunError.setup("--storage-faults: fiu-ctrl is not on PATH", fix: fix) }
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accord-fiu-\(UUID().uuidString)").path
        do {
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        } catch {
            throw RunError.output(folder, "\(error)")
        }
        self.control = control
        self.folder = folder
        let status = await Self.run("/bin/sh", ["-c", "test -p \"$FIU_CTRL_FIFO-$$.in\""], environment: environment)
        guard status == 0 else {
            remove()
            throw RunError.setup("--storage-faults: libfiu cannot be loaded: a preloaded shell got no control pipe", fix: fix)
        }
    }

    /// Removes the control pipes' folder, once the last driver of the run has ended.
    func remove() {
        try? FileManager.default.removeItem(atPath: folder)
    }

    /// The variables a driver is started with: the preloads and the control pipes' prefix.
    public var environment: [String: String] {
        let inherited = ProcessInfo.processInfo.environment["LD_PRELOAD"].map { " " + $0 } ?? ""
        return ["LD_PRELOAD": Self.preloads.joined(separator: " ") + inherited, "FIU_CTRL_FIFO": prefix, "FIU_ENABLE": ""]
    }

    /// Makes every failure point fail with `errno` in the live processes of `group`, blocking the
    /// calling thread until `fiu-ctrl` exits (never call it on a pool thread).
    /// - Returns: why it did not, or nil.
    func enableBlocking(_ errno: StorageFaultVariant.Errno, group: Int32) -> String? {
        send(Self.points.map { "enable name=\($0),failinfo=\(errno.number)" }, group: group)
    }

    /// Switches every failure point off again in the live processes of `group`, blocking the calling thread.
    /// - Returns: why it did not, or nil.
    func disableBlocking(group: Int32) -> String? {
        send(Self.points.map { "disable name=\($0)" }, group: group)
    }

    private func send(_ commands: [String], group: Int32) -> String? {
        let members = Self.members(of: group).filter { FileManager.default.fileExists(atPath: "\(prefix)-\($0).in") }
        guard !members.isEmpty else { return "no process of the driver's group \(group) has a libfiu control pipe" }
        let arguments = ["-f", prefix] + commands.flatMap { ["-c", $0] } + members.map(String.init)
        let status = Self.runBlocking(control, arguments, environment: [:])
        return status == 0 ? nil : "fiu-ctrl exited with status \(status)"
    }

    /// The live processes whose process group is `group`, from /proc/<pid>/stat.
    static func members(of group: Int32) -> [Int32] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return names.compactMap { name -> Int32? in
            guard let pid = Int32(name), let stat = try? String(contentsOfFile: "/proc/\(name)/stat", encoding: .utf8),
                let close = stat.lastIndex(of: ")")
            else { return nil }
            // After "pid (comm)": state, ppid, pgrp.
            let fields = stat[stat.index(after: close)...].split(separator: " ")
            guard fields.count > 2, fields[0] != "Z", Int32(fields[2]) == group else { return nil }
            return pid
        }.sorted()
    }

    /// Runs a tool to its exit on a thread of its own (never on the concurrency pool); its status, or -1 when it did not start.
    static func run(_ executable: String, _ arguments: [String], environment: [String: String]) async -> Int32 {
        await withCheckedContinuation { (continuation: CheckedContinuation<Int32, Never>) in
            Thread.detachNewThread { continuation.resume(returning: runBlocking(executable, arguments, environment: environment)) }
        }
    }

    /// Runs a tool to its exit on the calling thread; its exit status, or -1 when it did not start
    /// or did not exit (a signal ended it, or it ran past `timeout` and was killed: `fiu-ctrl`
    /// writing to a control pipe no process reads any more would wait for ever).
    static func runBlocking(
        _ executable: String, _ arguments: [String], environment: [String: String], timeout: Duration = .seconds(15)
    ) -> Int32 {
        var env = ProcessInfo.processInfo.environment
        for (key, value) in environment { env[key] = value }
        guard let pid = try? Spawn.start(executable, arguments, environment: env, stdin: .null, stdout: .null, stderr: .null)
        else { return -1 }
        // The watchdog kills only while the tool is not reaped (its pid cannot be anyone else's):
        // the tool's end is seen without reaping it, flagged under the lock, and only then reaped.
        let ended = Mutex(false)
        let settled = Latch()
        Thread.detachNewThread {
            guard !settled.block(timeout: timeout) else { return }
            ended.withLock { ended in if !ended { _ = kill(pid, SIGKILL) } }
        }
        var info = siginfo_t()
        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) == -1 && errno == EINTR {}
        ended.withLock { $0 = true }
        settled.set()
        guard let raw = Spawn.wait(pid) else { return -1 }
        return raw & 0x7f == 0 ? (raw >> 8) & 0xff : -1
    }
}
