import Corpus
import JSON
import KizunaWire
import PowerSyncWire

/// What `DriverLoop` needs of an engine beside the session order it keeps itself: the profile
/// it speaks, its hello, its close, and how it performs an op of that profile.
protocol DriverSeat {
    /// The profile the engine speaks; ops of the other profile are refused before `perform`.
    var profile: CorpusProfile { get }
    /// The hello answer.
    func hello() async -> HelloResult
    /// Closes the engine.
    func close() async throws
    /// Performs an op of the engine's profile other than hello and close, the session order already kept.
    func perform(_ request: DriverRequest, capabilities: Set<String>) async -> DriverResponse
}

extension KizunaSync {
    /// A KizunaSync engine in the loop.
    struct Seat<Engine: KizunaSync.EngineDriver>: DriverSeat {
        let engine: Engine
        var profile: CorpusProfile { .kizunaSync }
        func hello() async -> HelloResult { await engine.hello() }
        func close() async throws { try await engine.close() }

        func perform(_ request: DriverRequest, capabilities: Set<String>) async -> DriverResponse {
            let id = request.id
            func refuse(_ detail: String, at pointer: JSONPointer) -> DriverResponse {
                DriverResponse(id: id, failure: DriverFailure(DriverError(.unsupported, at: pointer, detail)))
            }
            switch request.body {
            case .open(let open):
                for table in open.server.tables where table.softDeleteColumn != nil && !capabilities.contains(DriverCapability.softDelete) {
                    return refuse(
                        "the driver did not announce \(DriverCapability.softDelete)",
                        at: JSONPointer(tokens: ["server", "tables", table.name, "soft_delete_column"]))
                }
                do {
                    try await engine.open(open)
                } catch {
                    return DriverLoop.failure(id, error)
                }
                return DriverResponse(id: id, result: .opened)
            case .write(let write):
                if !write.mutation.transforms.isEmpty && !capabilities.contains(DriverCapability.transforms) {
                    return refuse(
                        "the driver did not announce \(DriverCapability.transforms)", at: JSONPointer(tokens: ["mutation", "transforms"]))
                }
                if write.atomicGroup != nil && !capabilities.contains(DriverCapability.atomic) {
                    return refuse("the driver did not announce \(DriverCapability.atomic)", at: JSONPointer(tokens: ["atomic_group"]))
                }
                return await DriverLoop.call(id) { () async throws -> DriverResult in .written(try await engine.write(write)) }
            case .push:
                return await DriverLoop.call(id) { () async throws -> DriverResult in .pushed(try await engine.push()) }
            case .pull(let pull):
                return await DriverLoop.call(id) { () async throws -> DriverResult in .pulled(try await engine.pull(pull)) }
            case .state(let state):
                return await DriverLoop.call(id) { () async throws -> DriverResult in .state(try await engine.state(state)) }
            case .hello, .close, .powerSync:
                return DriverLoop.failure(id, DriverError(.sequence, at: .root, "\(request.body.op.rawValue) is not performed here"))
            }
        }
    }
}

extension PowerSync {
    /// A PowerSync client in the loop (§11).
    struct Seat<Engine: PowerSync.EngineDriver>: DriverSeat {
        let engine: Engine
        var profile: CorpusProfile { .powerSync }
        func hello() async -> HelloResult { await engine.hello() }
        func close() async throws { try await engine.close() }

        func perform(_ request: DriverRequest, capabilities: Set<String>) async -> DriverResponse {
            guard case .powerSync(let body) = request.body else {
                return DriverLoop.failure(
                    request.id, DriverError(.sequence, at: .root, "\(request.body.op.rawValue) is not performed here"))
            }
            return await DriverLoop.call(request.id) { () async throws -> DriverResult in
                switch body {
                case .attach(let attach):
                    try await engine.attach(attach)
                    return .powerSync(.done(.attach))
                case .localWrite(let write): return .powerSync(.written(pendingUploads: try await engine.localWrite(write)))
                case .upload: return .powerSync(.uploaded(try await engine.upload()))
                case .sync: return .powerSync(.synced(try await engine.sync()))
                case .follow: return .powerSync(.synced(try await engine.follow()))
                case .requestCheckpoint: return .powerSync(.requested(checkpointRequestID: try await engine.requestCheckpoint()))
                case .waitForSync(let wait): return .powerSync(.waited(try await engine.waitForSync(wait)))
                case .disconnect:
                    try await engine.disconnect()
                    return .powerSync(.done(.disconnect))
                case .reconnect:
                    try await engine.reconnect()
                    return .powerSync(.done(.reconnect))
                case .localReset:
                    try await engine.localReset()
                    return .powerSync(.done(.localReset))
                case .clientState(let tables): return .powerSync(.state(try await engine.clientState(tables: tables)))
                }
            }
        }
    }
}
