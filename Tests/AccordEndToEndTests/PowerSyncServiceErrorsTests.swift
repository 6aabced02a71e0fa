import AccordTestSupport
import Foundation
import JSON
import Testing

/// `accord serve --profile powersync` answers failures as PowerSync's service does, in its order:
/// powersync-ja/powersync-service at 332d649554ce0ffa6151f57bce920056f2c0b5ea —
/// libs/lib-services/src/router/endpoint.ts (`executeEndpoint`: validate, then authorize),
/// packages/service-core/src/routes/route-register.ts (`setNotFoundHandler`, the `{"data": …}`
/// envelope), packages/service-core/src/routes/auth.ts lines 27-32 (`PSYNC_S2106`), and
/// packages/service-errors/src/errors.ts (`ValidationError`, `AuthorizationError`, `RouteNotFound`).
@Suite("PowerSync serve: failures and their order as PowerSync's service answers them")
struct PowerSyncServiceErrorsTests {
    /// Status and body of one request.
    static func call(_ arguments: [String]) async throws -> (status: Int, body: JSONValue) {
        let output = try await PeerProcess.curl(["-w", "\n%{http_code}"] + arguments)
        let parts = output.stdout.split(separator: "\n", omittingEmptySubsequences: false)
        let status = Int(parts.last ?? "") ?? 0
        let body = parts.dropLast().joined(separator: "\n")
        return (status, (try? JSONParser.parse(Array(body.utf8))) ?? .string(body))
    }

    @Test(
        "an unknown route is 404 RouteNotFound before any credential; a bad body 400 ValidationError before the token; no token 401 PSYNC_S2106"
    )
    func orderAndShapes() async throws {
        let served = try ServeEndToEndTests.Served(["--profile", "powersync", "--jwt-secret", "errors-secret"])
        defer { _ = served.stop() }
        let base = "http://127.0.0.1:\(served.port)"
        let json = ["-H", "Content-Type: application/json"]

        let missing = try await Self.call([base + "/nope"])
        #expect(missing.status == 404)
        #expect(missing.body["error"]?["code"] == "PSYNC_S2002" && missing.body["error"]?["name"] == "RouteNotFound", "\(missing.body)")
        #expect(missing.body["error"]?["status"] == 404)

        let invalid = try await Self.call(
            json + ["-d", #"{"client_id":"c","checkpoint_request_id":"0"}"#, base + "/sync/checkpoint-request"])
        #expect(invalid.status == 400, "validated before the (absent) token is looked at")
        #expect(invalid.body["error"]?["code"] == "PSYNC_S2001" && invalid.body["error"]?["name"] == "ValidationError", "\(invalid.body)")
        #expect(invalid.body["error"]?["description"] == "Validation failed")
        #expect(invalid.body["error"]?["details"]?.stringValue?.contains("/checkpoint_request_id") == true, "\(invalid.body)")

        #expect(missing.body["error"]?["severity"] == "info", "\(missing.body)")

        // fastify lib/errors.js at 83e6976 (and @fastify/error's name), through route-register.ts
        // fastifyErrorToResponse: a JSON body that does not parse is refused before the route.
        let broken = try await Self.call(json + ["-d", "{ not json", base + "/sync/checkpoint-request"])
        #expect(broken.status == 400 && broken.body["error"]?["code"] == "FST_ERR_CTP_INVALID_JSON_BODY", "\(broken.body)")
        #expect(broken.body["error"]?["name"] == "FastifyError")
        let empty = try await Self.call(json + ["-X", "POST", base + "/sync/checkpoint-request"])
        #expect(empty.status == 400 && empty.body["error"]?["code"] == "FST_ERR_CTP_EMPTY_JSON_BODY", "\(empty.body)")
        // Only an object body is merged into the parameters (route-register.ts L42-47): [] reads as {}.
        let array = try await Self.call(json + ["-d", "[]", base + "/sync/checkpoint-request"])
        #expect(array.status == 400 && array.body["error"]?["code"] == "PSYNC_S2001", "\(array.body)")

        let anonymous = try await Self.call(
            json + ["-d", #"{"client_id":"c","checkpoint_request_id":"5","extra":true}"#, base + "/sync/checkpoint-request"])
        #expect(anonymous.status == 401)
        let error = anonymous.body["error"]
        #expect(error?.objectValue?.keys.sorted() == ["code", "description", "name", "status"], "\(anonymous.body)")
        #expect(error?["name"] == "AuthorizationError" && error?["code"] == "PSYNC_S2106" && error?["status"] == 401)
        #expect(error?["description"] == "Authentication required")

        let forged = try await Self.call(
            json + [
                "-H", "Authorization: Token not.a.jwt", "-d", #"{"client_id":"c","checkpoint_request_id":"5"}"#,
                base + "/sync/checkpoint-request",
            ])
        #expect(forged.status == 401 && forged.body["error"]?["code"] == "PSYNC_S2101", "\(forged.body)")

        let token = try await JWTCommandTests.mint(["--secret", "errors-secret", "--sub", "user-ada"])
        let held = try await Self.call(
            json + [
                "-H", "Authorization: Token \(token)", "-d", #"{"client_id":"c","checkpoint_request_id":5,"extra":true}"#,
                base + "/sync/checkpoint-request",
            ])
        #expect(held.status == 200 && held.body == ["data": ["checkpoint_request_id": "5"]], "\(held.body)")
        let write = try await Self.call(["-H", "Authorization: Token \(token)", base + "/write-checkpoint2.json?client_id=c&other=1"])
        #expect(write.status == 200 && write.body["data"]?["write_checkpoint"]?.stringValue != nil, "\(write.body)")
        // A bad escape in the query is not a crash (Foundation's percentEncodedQuery setter traps on one).
        let badQuery = try await Self.call(["-H", "Authorization: Token \(token)", base + "/write-checkpoint2.json?client_id=%zz"])
        #expect([200, 400].contains(badQuery.status), "\(badQuery.body)")
        let after = try await Self.call(["-H", "Authorization: Token \(token)", base + "/write-checkpoint2.json?client_id=c"])
        #expect(after.status == 200, "\(after.body)")
    }

    /// packages/service-core/src/sync/util.ts at 332d649, `tokenStream` lines 66-74: the first
    /// test yields nothing while the token is valid.
    @Test("a stream opened with a valid token (exp in an hour) starts with its checkpoint, not token_expires_in")
    func noExpiryLineAtStart() async throws {
        let served = try ServeEndToEndTests.Served(["--profile", "powersync", "--jwt-secret", "errors-secret"])
        defer { _ = served.stop() }
        let token = try await JWTCommandTests.mint(["--secret", "errors-secret", "--sub", "user-ada", "--expires-in", "1h"])
        let output = try await PeerProcess.curl([
            "-m", "2", "-H", "Authorization: Token \(token)", "-H", "Content-Type: application/json", "-d",
            #"{"buckets":[],"client_id":"c"}"#,
            "http://127.0.0.1:\(served.port)/sync/stream",
        ])
        let first = output.stdout.split(separator: "\n").first.map { String($0) } ?? ""
        #expect(first.hasPrefix(#"{"checkpoint":"#), "\(output.stdout)")
        #expect(!output.stdout.contains("token_expires_in"), "\(output.stdout)")
    }
}
