import AccordTestSupport
import Foundation
import Glibc
import Harness
import Testing

@testable import Lanes

@Suite("Spawn: child processes from a process with many descriptors open")
struct SpawnTests {
    /// Opens `count` more descriptors (duplicates of /dev/null) and returns them.
    static func hold(_ count: Int) throws -> [Int32] {
        let null = open("/dev/null", O_RDONLY | O_CLOEXEC)
        try #require(null >= 0)
        defer { close(null) }
        var held: [Int32] = []
        for _ in 0..<count {
            let copy = fcntl(null, F_DUPFD_CLOEXEC, 0)
            if copy < 0 { break }
            held.append(copy)
        }
        return held
    }

    /// The descriptors a child started through `ChildProcess` has open, as `ls` lists them.
    static func childDescriptors() throws -> [String] {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/ls")
        child.arguments = ["/proc/self/fd"]
        let out = Pipe()
        child.standardOutput = out
        child.standardInput = FileHandle.nullDevice
        try child.run()
        let listed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        #expect(child.terminationStatus == 0)
        return listed.split(separator: "\n").map(String.init)
    }

    // Foundation's Process.run() dies with SIGSEGV past about 1,360 open descriptors
    // (swiftlang/swift-corelibs-foundation issue 5472, Sources/Foundation/Process.swift at
    // 001fb5ce, findMaximumOpenFromProcSelfFD): this is the count the test process reached.
    @Test("with 2,700 descriptors open, children start, get only 0–2 (and ls its own directory), and end")
    func manyDescriptors() throws {
        // Room for them where the soft limit is the common 1,024 (the hard limit allows more).
        var limit = rlimit()
        getrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        if limit.rlim_cur < 4096 && limit.rlim_max >= 4096 {
            limit.rlim_cur = 4096
            setrlimit(Int32(RLIMIT_NOFILE.rawValue), &limit)
        }
        let held = try Self.hold(2700)
        defer { for fd in held { close(fd) } }
        try #require(held.count == 2700, "the descriptor limit is below 2,700 here")
        for _ in 0..<40 {
            // ls opens the folder it lists, which takes the lowest free number, 3.
            #expect(try Self.childDescriptors() == ["0", "1", "2", "3"])
        }
    }

    @Test("a child gets an empty signal mask even when the spawning thread blocks SIGTERM, so SIGTERM ends it")
    func signalMask() throws {
        var blocked = sigset_t()
        sigemptyset(&blocked)
        sigaddset(&blocked, SIGTERM)
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &blocked, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["30"]
        try child.run()
        child.terminate()
        child.waitUntilExit()
        #expect(child.terminationReason == .uncaughtSignal)
        #expect(child.terminationStatus == SIGTERM)
    }

    @Test("a missing executable is an error naming errno, not a child")
    func missing() throws {
        #expect(throws: POSIXError.self) { try Spawn.start("/nonexistent/accord-tool", [], environment: [:]) }
    }

    @Test("the exit status and the folder it started in come through")
    func statusAndDirectory() throws {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        child.arguments = ["-c", "pwd; exit 7"]
        child.currentDirectoryURL = URL(fileURLWithPath: "/usr")
        let out = Pipe()
        child.standardOutput = out
        try child.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        #expect(printed == "/usr\n")
        #expect(child.terminationStatus == 7)
        #expect(child.terminationReason == .exit)
    }

    @Test("FileHandle.nullDevice (no descriptor on Linux) gives the child /dev/null, not this process's streams")
    func nullDevice() throws {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/sh")
        child.arguments = ["-c", "readlink /proc/self/fd/0; readlink /proc/self/fd/2"]
        let out = Pipe()
        child.standardInput = FileHandle.nullDevice
        child.standardOutput = out
        child.standardError = FileHandle.nullDevice
        try child.run()
        let printed = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        child.waitUntilExit()
        #expect(printed == "/dev/null\n/dev/null\n")
    }

    @Test("a wait from another thread right after run() waits for the child")
    func waitFromAnotherThread() async throws {
        let child = ChildProcess()
        child.executableURL = URL(fileURLWithPath: "/bin/sleep")
        child.arguments = ["0.2"]
        try child.run()
        let started = ContinuousClock.now
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            Thread.detachNewThread {
                child.waitUntilExit()
                continuation.resume()
            }
        }
        #expect(!child.isRunning)
        #expect(ContinuousClock.now - started >= .milliseconds(150))
    }
}
