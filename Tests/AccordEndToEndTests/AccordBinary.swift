import AccordTestSupport
import Foundation

/// Runs the built `accord` binary for end-to-end tests.
enum AccordBinary {
    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// The package root, found from this file's path.
    static var packageRoot: String {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().path
    }

    /// The shared upstream corpus, read in place.
    static var sharedCorpus: String { packageRoot + "/../shared/kizunasync-protocol" }

    /// The binary: $ACCORD_BIN, else the debug build under .build.
    static var path: String {
        if let explicit = ProcessInfo.processInfo.environment["ACCORD_BIN"] { return explicit }
        let debug = packageRoot + "/.build/debug/accord"
        if FileManager.default.isExecutableFile(atPath: debug) { return debug }
        let build = packageRoot + "/.build"
        for entry in (try? FileManager.default.contentsOfDirectory(atPath: build)) ?? [] {
            let candidate = "\(build)/\(entry)/debug/accord"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return debug
    }

    /// Runs `accord` with arguments, collecting both streams through temporary files so that
    /// large outputs never block the child.
    /// Waits without holding a concurrency-pool thread, so in-process servers of other tests
    /// keep being served while the binary runs.
    static func run(_ arguments: [String], cwd: String? = nil, environment: [String: String] = [:]) async throws -> Result {
        try await runProgram(path, arguments, cwd: cwd, environment: environment)
    }

    /// Runs another program (e.g. Debian's chromium) the same way.
    static func runProgram(_ program: String, _ arguments: [String], cwd: String? = nil, environment: [String: String] = [:]) async throws
        -> Result
    {
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        if !environment.isEmpty { process.environment = ProcessInfo.processInfo.environment.merging(environment) { _, new in new } }
        if let cwd { process.currentDirectoryURL = URL(fileURLWithPath: cwd) }
        let directory = scratchFolder.appendingPathComponent("accord-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("stdout")
        let errURL = directory.appendingPathComponent("stderr")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL)
        let err = try FileHandle(forWritingTo: errURL)
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            process.terminationHandler = { _ in continuation.resume() }
            do {
                try process.run()
            } catch {
                process.terminationHandler = nil
                continuation.resume()
            }
        }
        guard !process.isRunning, process.processIdentifier != 0 else { throw CocoaError(.executableLoad) }
        try out.close()
        try err.close()
        return Result(
            status: process.terminationStatus,
            stdout: String(decoding: try Data(contentsOf: outURL), as: UTF8.self),
            stderr: String(decoding: try Data(contentsOf: errURL), as: UTF8.self))
    }

    /// A fresh temporary folder, in `scratchFolder`.
    static func temporaryFolder() throws -> URL {
        let url = scratchFolder.appendingPathComponent("accord-test-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// The folder this test process keeps its temporary folders in, removed as it exits, so a
    /// test that fails before its own clean-up leaves nothing behind.
    static let scratchFolder: URL = {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("accord-e2e-tests-\(getpid())")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(at: AccordBinary.scratchFolder) }
        return url
    }()
}
