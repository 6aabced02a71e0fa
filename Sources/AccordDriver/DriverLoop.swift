import Corpus
import JSON
import KizunaWire
import PowerSyncWire

/// Serves the driver protocol: reads request lines, dispatches them to a `KizunaSync.EngineDriver`,
/// and writes one response line per request line, in order.
public enum DriverLoop {
    /// Why the loop stopped.
    public enum Ending: Sendable, Hashable {
        /// A `close` request was answered.
        case closed
        /// The input ended (or failed) before a `close`; an open engine was closed.
        case endOfInput
        /// A response could not be written; an open engine was closed.
        case outputFailed
    }

    private enum Phase {
        case greeting, ready, open
    }

    /// Runs a session until `close`, end of input, or a failed write; never throws and never
    /// traps on bad input.
    /// - Parameters:
    ///   - engine: the engine to drive.
    ///   - input: where request lines come from (standard input for a real driver).
    ///   - output: where response lines go (standard output for a real driver).
    ///   - maximumLineLength: the longest request line accepted, in bytes.
    /// - Returns: why the loop stopped.
    public static func run(
        engine: some KizunaSync.EngineDriver, input: some DriverInput, output: some DriverOutput, maximumLineLength: Int = 16 << 20
    ) async -> Ending {
        await serve(KizunaSync.Seat(engine: engine), input: input, output: output, maximumLineLength: maximumLineLength)
    }

    /// Runs a session of a PowerSync client (§11): its hello answers `profile: powersync`, and it
    /// takes the PowerSync ops instead of KizunaSync's.
    /// - Parameters:
    ///   - engine: the client to drive.
    ///   - input: where request lines come from.
    ///   - output: where response lines go.
    ///   - maximumLineLength: the longest request line accepted, in bytes.
    /// - Returns: why the loop stopped.
    public static func run(
        powerSync engine: some PowerSync.EngineDriver, input: some DriverInput, output: some DriverOutput,
        maximumLineLength: Int = 16 << 20
    ) async -> Ending {
        await serve(PowerSync.Seat(engine: engine), input: input, output: output, maximumLineLength: maximumLineLength)
    }

    private static func serve(
        _ seat: some DriverSeat, input: some DriverInput, output: some DriverOutput, maximumLineLength: Int
    ) async -> Ending {
        var lines = DriverLineReader(input, maximumLength: maximumLineLength)
        var phase = Phase.greeting
        var capabilities: Set<String> = []
        while let line = await lines.next() {
            let response: DriverResponse
            var stop = false
            switch line {
            case .tooLong(let length):
                response = DriverResponse(
                    id: nil,
                    failure: DriverFailure(
                        DriverError(.lineTooLong, at: .root, "a \(length)-byte line is over the \(maximumLineLength)-byte limit")))
            case .line(let bytes):
                if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
                let request: DriverRequest
                do throws(DriverError) {
                    request = try DriverRequest(line: bytes)
                } catch {
                    let id = (try? JSONParser.parse(bytes)).flatMap { DriverRequest.id(in: $0) }
                    response = DriverResponse(id: id, failure: DriverFailure(error))
                    break
                }
                if case .close = request.body { stop = true }
                response = await answer(request, seat: seat, phase: &phase, capabilities: &capabilities)
            }
            do {
                try await output.write(response.line)
            } catch {
                if phase == .open && !stop { try? await seat.close() }
                return .outputFailed
            }
            if stop { return .closed }
        }
        if phase == .open { try? await seat.close() }
        return .endOfInput
    }

    private static func answer(
        _ request: DriverRequest, seat: some DriverSeat, phase: inout Phase, capabilities: inout Set<String>
    ) async -> DriverResponse {
        let id = request.id
        func refuse(_ kind: DriverError.Kind, _ detail: String, at pointer: JSONPointer = .root) -> DriverResponse {
            DriverResponse(id: id, failure: DriverFailure(DriverError(kind, at: pointer, detail)))
        }
        let op = request.body.op
        switch (request.body, phase) {
        case (.hello(let version), .greeting):
            guard version == DriverRequest.protocolVersion else {
                return refuse(
                    .protocolVersion, "this driver speaks \(DriverRequest.protocolVersion), not \"\(version)\"",
                    at: JSONPointer(tokens: ["protocol"]))
            }
            var hello = await seat.hello()
            hello.protocolVersion = DriverRequest.protocolVersion
            hello.profile = seat.profile
            capabilities = Set(hello.capabilities)
            phase = .ready
            return DriverResponse(id: id, result: .hello(hello))
        case (.hello, _):
            return refuse(.sequence, "hello was already answered")
        case (.close, let current):
            if current == .open {
                phase = .ready
                do {
                    try await seat.close()
                } catch {
                    return failure(id, error)
                }
            }
            return DriverResponse(id: id, result: .closed)
        case (_, .greeting):
            return refuse(.sequence, "the first request is hello")
        case (_, .ready) where op != .open && op != .attach:
            return refuse(.sequence, "\(op.rawValue) needs an open store")
        case (_, .open) where op == .open || op == .attach:
            return refuse(.sequence, "the store is already open")
        default:
            if let profile = op.profile, profile != seat.profile {
                return refuse(
                    .unsupported, "this driver speaks the \(seat.profile.rawValue) profile; \(op.rawValue) is a \(profile.rawValue) op",
                    at: JSONPointer(tokens: ["op"]))
            }
            let response = await seat.perform(request, capabilities: capabilities)
            if phase == .ready && response.result != nil { phase = .open }
            return response
        }
    }

    static func call(_ id: Int, _ body: () async throws -> DriverResult) async -> DriverResponse {
        do {
            return DriverResponse(id: id, result: try await body())
        } catch {
            return failure(id, error)
        }
    }

    static func failure(_ id: Int, _ error: any Error) -> DriverResponse {
        switch error {
        case let error as EngineError: DriverResponse(id: id, failure: DriverFailure(error))
        case let error as WireError: DriverResponse(id: id, failure: DriverFailure(EngineError(error)))
        case let error as DriverError: DriverResponse(id: id, failure: DriverFailure(error))
        default:
            DriverResponse(id: id, failure: DriverFailure(DriverError(.engineFailure, at: .root, String(describing: error))))
        }
    }
}
