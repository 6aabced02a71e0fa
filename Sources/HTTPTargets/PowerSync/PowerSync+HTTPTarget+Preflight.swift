import JSON
import PowerSyncWire
import ServerContract
import Transport

extension PowerSync.HTTPTarget: TargetPreflight {
    /// The user the preflight's request is made as; no case uses it.
    static let preflightUser = "accord-preflight"

    /// Checks, before the first PowerSync case, that this service can be tested at all, so that
    /// a setup mistake reads as one line with its fix (exit 78) rather than as a failure of every
    /// case: that it answers HTTP, that its fixture endpoint is on (`POST /accord/powersync/reset`
    /// answers 204; every case resets the service first anyway), and that it takes the tokens the
    /// runner mints with `--jwt-secret` (`GET /write-checkpoint2.json` is not a 401 or 403).
    /// - Throws: `SetupProblem` saying what is wrong and how to fix it.
    public func preflight() async throws(SetupProblem) {
        let reset: ClientResponse
        do {
            reset = try await session.send(
                "POST", base + PowerSync.Surface.Fixture.reset.path, headers: [("Content-Type", "application/json")],
                body: Array("{}".utf8), timeout: 5)
        } catch {
            throw SetupProblem(
                "the PowerSync service at \(base) is not reachable (\(error))",
                fix: "start it, or pass the URL it listens on to --server")
        }
        // A service without the endpoint answers 404, or 401 when it checks tokens first (serve).
        guard reset.status == 204 else {
            throw SetupProblem(
                "the PowerSync fixture endpoint is off: POST \(base)\(PowerSync.Surface.Fixture.reset.path) answered HTTP "
                    + "\(reset.status)\(Self.serviceError(reset.body)), not 204",
                fix: "start the service with its fixture endpoint on (accord serve --profile powersync --fixtures; docs/powersync.md)")
        }
        let checkpoint: ClientResponse
        do {
            checkpoint = try await session.send(
                "GET", base + PowerSync.Surface.Route.writeCheckpoint.path + "?client_id=" + Self.preflightUser,
                headers: headers(Self.preflightUser), body: [], timeout: 5)
        } catch {
            throw SetupProblem("the PowerSync service at \(base) stopped answering (\(error))", fix: "check that it is running")
        }
        if checkpoint.status == 401 || checkpoint.status == 403 {
            throw SetupProblem(
                "the PowerSync service refused the runner's token: GET \(PowerSync.Surface.Route.writeCheckpoint.path) answered HTTP "
                    + "\(checkpoint.status)\(Self.serviceError(checkpoint.body))",
                fix: "pass the secret the service verifies tokens with (--jwt-secret or $ACCORD_JWT_SECRET)")
        }
    }

    /// ` (CODE: description)` from a PowerSync error body (`{"error":{"code":…,"description":…}}`),
    /// or nothing.
    static func serviceError(_ body: [UInt8]) -> String {
        guard let json = try? JSONParser.parse(body), let error = json["error"] else { return "" }
        switch (error["code"]?.stringValue, error["description"]?.stringValue) {
        case (let code?, let description?): return " (\(code): \(description))"
        case (let code?, nil): return " (\(code))"
        case (nil, let description?): return " (\(description))"
        case (nil, nil): return ""
        }
    }
}
