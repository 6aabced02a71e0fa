import Foundation
import Glibc
import Harness
import Lanes
import Synchronization

/// A child process for tests, started by `Spawn`, with the part of Foundation's `Process`
/// interface the tests use. Not `Process` itself: the test process, with many in-process servers
/// running at once, holds well over the 1,360 descriptors past which `Process.run()` crashes (see
/// `Spawn`).
public final class ChildProcess: Sendable {
    /// Whether the child exited or a signal ended it.
    public enum TerminationReason: Sendable { case exit, uncaughtSignal }

    private struct Setup {
        var executableURL: URL?
        var arguments: [String]?
        var environment: [String: String]?
        var currentDirectoryURL: URL?
        var standardInput: StandardStream = .inherit
        var standardOutput: StandardStream = .inherit
        var standardError: StandardStream = .inherit
        var terminationHandler: (@Sendable (ChildProcess) -> Void)?
    }

    /// Where a standard descriptor of the child comes from.
    private enum StandardStream: @unchecked Sendable {
        case inherit
        case handle(FileHandle)
        case pipe(Pipe)
    }

    private enum Phase {
        case idle
        case running(pid_t)
        case exited(pid_t, raw: Int32)
    }

    private let setup = Mutex(Setup())
    private let phase = Mutex(Phase.idle)
    private let finished = DispatchGroup()

    /// A child not started yet.
    public init() {}

    /// The program, by path (no PATH search).
    public var executableURL: URL? {
        get { setup.withLock { $0.executableURL } }
        set { setup.withLock { $0.executableURL = newValue } }
    }
    /// Its arguments after argv[0].
    public var arguments: [String]? {
        get { setup.withLock { $0.arguments } }
        set { setup.withLock { $0.arguments = newValue } }
    }
    /// The whole environment of the child; nil inherits this process's.
    public var environment: [String: String]? {
        get { setup.withLock { $0.environment } }
        set { setup.withLock { $0.environment = newValue } }
    }
    /// The folder it starts in; nil keeps this process's.
    public var currentDirectoryURL: URL? {
        get { setup.withLock { $0.currentDirectoryURL } }
        set { setup.withLock { $0.currentDirectoryURL = newValue } }
    }
    /// A `Pipe` (its reading end becomes the child's stdin), a `FileHandle`, or nil to inherit.
    public var standardInput: Any? {
        get { setup.withLock { Self.object($0.standardInput) } }
        set { setup.withLock { $0.standardInput = Self.stream(newValue) } }
    }
    /// A `Pipe` (its writing end becomes the child's stdout), a `FileHandle`, or nil to inherit.
    public var standardOutput: Any? {
        get { setup.withLock { Self.object($0.standardOutput) } }
        set { setup.withLock { $0.standardOutput = Self.stream(newValue) } }
    }
    /// As `standardOutput`, for stderr.
    public var standardError: Any? {
        get { setup.withLock { Self.object($0.standardError) } }
        set { setup.withLock { $0.standardError = Self.stream(newValue) } }
    }
    /// Called once, on the thread that reaped the child.
    public var terminationHandler: (@Sendable (ChildProcess) -> Void)? {
        get { setup.withLock { $0.terminationHandler } }
        set { setup.withLock { $0.terminationHandler = newValue } }
    }

    /// Its pid; 0 before it has started.
    public var processIdentifier: Int32 {
        phase.withLock {
            switch $0 {
            case .idle: 0
            case .running(let pid), .exited(let pid, _): pid
            }
        }
    }

    /// Whether it has started and not yet been reaped.
    public var isRunning: Bool {
        phase.withLock {
            if case .running = $0 { return true }
            return false
        }
    }

    /// The exit status, or the signal that ended the child; 0 before it has ended.
    public var terminationStatus: Int32 {
        phase.withLock {
            guard case .exited(_, let raw) = $0 else { return 0 }
            return raw & 0x7f == 0 ? (raw >> 8) & 0xff : raw & 0x7f
        }
    }

    /// How it ended; `.exit` before it has.
    public var terminationReason: TerminationReason {
        phase.withLock {
            guard case .exited(_, let raw) = $0 else { return .exit }
            return raw & 0x7f == 0 ? .exit : .uncaughtSignal
        }
    }

    /// Spawns the child.
    /// - Throws: `CocoaError` naming the executable when posix_spawn fails or it was run before.
    public func run() throws {
        let setup = setup.withLock { $0 }
        guard let executable = setup.executableURL?.path else { throw CocoaError(.fileNoSuchFile) }
        guard case .idle = phase.withLock({ $0 }) else { throw CocoaError(.executableLoad, userInfo: [NSFilePathErrorKey: executable]) }
        let streams = [(setup.standardInput, Int32(0)), (setup.standardOutput, 1), (setup.standardError, 2)]
        var descriptors: [Spawn.Descriptor] = []
        for (stream, target) in streams {
            switch stream {
            case .inherit: descriptors.append(.inherit)
            // `FileHandle.nullDevice` has no descriptor on Linux (-1): the child gets /dev/null.
            case .handle(let handle): descriptors.append(handle.fileDescriptor >= 0 ? .from(handle.fileDescriptor) : .null)
            case .pipe(let pipe):
                descriptors.append(.from((target == 0 ? pipe.fileHandleForReading : pipe.fileHandleForWriting).fileDescriptor))
            }
        }
        // Entered before the child exists, so that a wait from another thread never finds the
        // group empty while the child runs.
        finished.enter()
        let pid: pid_t
        do {
            pid = try Spawn.start(
                executable, setup.arguments ?? [], environment: setup.environment ?? ProcessInfo.processInfo.environment,
                stdin: descriptors[0], stdout: descriptors[1], stderr: descriptors[2], directory: setup.currentDirectoryURL?.path)
        } catch {
            finished.leave()
            throw CocoaError(.executableLoad, userInfo: [NSFilePathErrorKey: executable, NSUnderlyingErrorKey: error])
        }
        phase.withLock { $0 = .running(pid) }
        // The child holds its own copies now: close this process's copies of the child's ends,
        // so that a reader sees end-of-file when the child exits, as with `Process`.
        var closed = Set<Int32>()
        for (stream, target) in streams {
            guard case .pipe(let pipe) = stream else { continue }
            let end = target == 0 ? pipe.fileHandleForReading : pipe.fileHandleForWriting
            if closed.insert(end.fileDescriptor).inserted { try? end.close() }
        }
        Thread.detachNewThread { [self] in
            // A child that cannot be waited for is taken as ended abnormally (0x7f).
            let raw = Spawn.wait(pid) ?? 0x7f
            phase.withLock { $0 = .exited(pid, raw: raw) }
            let handler = self.setup.withLock { state in
                defer { state.terminationHandler = nil }
                return state.terminationHandler
            }
            handler?(self)
            finished.leave()
        }
    }

    /// Blocks until the child has ended and its termination handler has returned.
    public func waitUntilExit() {
        guard !isIdle else { return }
        finished.wait()
    }

    /// Sends SIGTERM.
    public func terminate() { send(SIGTERM) }

    /// Sends SIGINT.
    public func interrupt() { send(SIGINT) }

    /// Sends `number` while the child runs; nothing once it has been reaped (its pid may then
    /// be another process's).
    public func send(_ number: Int32) {
        phase.withLock {
            if case .running(let pid) = $0 { _ = kill(pid, number) }
        }
    }

    private var isIdle: Bool {
        phase.withLock {
            if case .idle = $0 { return true }
            return false
        }
    }

    private static func stream(_ object: Any?) -> StandardStream {
        switch object {
        case let pipe as Pipe: .pipe(pipe)
        case let handle as FileHandle: .handle(handle)
        default: .inherit
        }
    }

    private static func object(_ stream: StandardStream) -> Any? {
        switch stream {
        case .inherit: nil
        case .handle(let handle): handle
        case .pipe(let pipe): pipe
        }
    }
}
