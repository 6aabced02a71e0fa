import CLinux
import Foundation
import Glibc

/// Starting a child process with posix_spawn(3): the one place Accord (and its tests) start one.
///
/// The child gets descriptors 0–2 as given and no other (`closefrom(3)` in the child, so no
/// socket, pipe or recording of this process leaks into it), an empty signal mask and default
/// dispositions (a thread that blocks signals would otherwise hand its mask down).
///
/// Not Foundation's `Process`: on Linux its `run()` finds the highest open descriptor by copying
/// each `/proc/self/fd` entry's `d_name` as a whole 256-byte array, which reads past glibc's 32 KiB
/// getdents buffer once about 1,360 descriptors are open, and the process dies of SIGSEGV in
/// memcpy (swiftlang/swift-corelibs-foundation issue 5472; `Sources/Foundation/Process.swift` at
/// 001fb5ce, `findMaximumOpenFromProcSelfFD`; fixed upstream after Swift 6.3). A server under
/// load, or a test process running many servers, gets there.
public enum Spawn {
    /// Where one of the child's standard descriptors comes from.
    public enum Descriptor: Sendable {
        /// This process's descriptor of the same number.
        case inherit
        /// The given descriptor, duplicated onto the standard one.
        case from(Int32)
        /// `/dev/null`, opened in the child.
        case null
    }

    /// Spawns `executable` (a path; no PATH search) with `arguments` after argv[0].
    /// - Parameters:
    ///   - environment: the whole environment of the child.
    ///   - directory: the folder it starts in; nil keeps this process's.
    ///   - ownGroup: whether it leads a process group of its own (its pid is the group's id).
    /// - Returns: its pid.
    /// - Throws: the `errno` posix_spawn (or setting up its file actions: a bad descriptor) gave,
    ///   as a `POSIXError`.
    public static func start(
        _ executable: String, _ arguments: [String], environment: [String: String],
        stdin: Descriptor = .inherit, stdout: Descriptor = .inherit, stderr: Descriptor = .inherit,
        directory: String? = nil, ownGroup: Bool = false
    ) throws(POSIXError) -> pid_t {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        for (descriptor, target) in [(stdin, Int32(0)), (stdout, 1), (stderr, 2)] {
            let added: Int32
            switch descriptor {
            case .inherit: continue
            case .from(let source): added = posix_spawn_file_actions_adddup2(&actions, source, target)
            case .null: added = posix_spawn_file_actions_addopen(&actions, target, "/dev/null", O_RDWR, 0)
            }
            guard added == 0 else { throw POSIXError(POSIXErrorCode(rawValue: added) ?? .EBADF) }
        }
        if let directory {
            let added = posix_spawn_file_actions_addchdir_np(&actions, directory)
            guard added == 0 else { throw POSIXError(POSIXErrorCode(rawValue: added) ?? .ENOMEM) }
        }
        posix_spawn_file_actions_addclosefrom_np(&actions, 3)
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigfillset(&defaults)
        sigdelset(&defaults, SIGKILL)
        sigdelset(&defaults, SIGSTOP)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        var flags = POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF
        if ownGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= POSIX_SPAWN_SETPGROUP
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))
        let entries = environment.map { "\($0.key)=\($0.value)" }
        var spawned: pid_t = 0
        let result = withCStrings([executable] + arguments) { argv in
            withCStrings(entries) { envp in posix_spawn(&spawned, executable, &actions, &attributes, argv, envp) }
        }
        guard result == 0 else { throw POSIXError(POSIXErrorCode(rawValue: result) ?? .EINVAL) }
        return spawned
    }

    /// Waits for `pid` to end (retrying on EINTR) and returns its raw wait status; nil when it
    /// cannot be waited for (not a child of this process, or reaped elsewhere).
    public static func wait(_ pid: pid_t) -> Int32? {
        var raw: Int32 = 0
        while waitpid(pid, &raw, 0) < 0 {
            if errno != EINTR { return nil }
        }
        return raw
    }

    /// Calls `body` with a NULL-terminated array of C strings, as argv and envp are.
    private static func withCStrings(_ strings: [String], _ body: (UnsafePointer<UnsafeMutablePointer<CChar>?>) -> Int32) -> Int32 {
        var pointers: [UnsafeMutablePointer<CChar>?] = strings.map { strdup($0) }
        pointers.append(nil)
        defer { for pointer in pointers { free(pointer) } }
        return pointers.withUnsafeBufferPointer { buffer in buffer.baseAddress.map(body) ?? EINVAL }
    }
}
