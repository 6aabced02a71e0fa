import AccordDriver
import Foundation
import KizunaWire
import ReferenceClient

extension KizunaSync.ReferenceClientDriver {
    /// The SQLite file for a store path: the path itself, or `client.sqlite` inside it when it is a directory; parent
    /// directories are created.
    /// - Parameters:
    ///   - store: the open request's store path.
    ///   - file: the database file a directory path holds.
    /// - Returns: the database file path.
    /// - Throws: `EngineError` with `STORE_UNAVAILABLE` when the directories cannot be created.
    static func storePath(_ store: String, file: String = "client.sqlite") throws -> String {
        let manager = FileManager.default
        var isDirectory: ObjCBool = false
        let path =
            manager.fileExists(atPath: store, isDirectory: &isDirectory) && isDirectory.boolValue
            ? URL(fileURLWithPath: store).appendingPathComponent(file).path : store
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        do {
            try manager.createDirectory(atPath: parent, withIntermediateDirectories: true)
        } catch {
            throw EngineError(.storeUnavailable, "cannot create \(parent): \(error.localizedDescription)")
        }
        return path
    }

    /// Runs `body`, answering a `ClientError` or `WireError` under its engine code.
    /// - Parameters:
    ///   - isolation: the caller's actor, which runs `body`.
    ///   - body: the engine call.
    /// - Returns: its result.
    /// - Throws: `EngineError` with the code of the failure.
    static func mapped<T>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> T) async throws -> T {
        do {
            return try await body()
        } catch let error as ClientError {
            throw EngineError(EngineErrorCode(rawValue: error.code) ?? .store, error.message)
        } catch let error as WireError {
            throw EngineError(error)
        }
    }
}

extension PushResult {
    /// The driver protocol's push answer for an engine's pushOnce report.
    init(_ report: PushReport) {
        self.init(outcome: report.outcome.wire, mutations: report.mutations, signal: report.signal)
    }
}

extension PushReport.Outcome {
    /// The same outcome in the driver protocol's words.
    var wire: PushOutcome {
        switch self {
        case .sent: .sent
        case .nothing: .nothing
        case .blocked: .blocked
        }
    }
}

extension PullResult {
    /// The driver protocol's pull answer for an engine's pull report.
    init(_ report: PullReport) {
        self.init(outcome: report.outcome.wire, cursor: report.cursor, pages: report.pages, signal: report.signal)
    }
}

extension PullReport.Outcome {
    /// The same outcome in the driver protocol's words.
    var wire: PullOutcome {
        switch self {
        case .closed: .closed
        case .staged: .staged
        case .signal: .signal
        case .blocked: .blocked
        }
    }
}
