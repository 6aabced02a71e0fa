import Foundation
import JSON
import KizunaWire
import ServerContract
import Transport

extension KizunaSync.HTTPTarget: TargetPreflight {
    /// The caller the preflight's RPC is made as; no case uses it.
    static let preflightCaller = Identity(user: "accord-preflight", session: "accord-preflight")

    /// Checks, before the first case, that this server can be tested at all, so a setup mistake
    /// reads as one line rather than as a failure of every case: that it answers HTTP, that its
    /// fixture endpoint is on (`POST /accord/fixtures/step` is not a 404), and that it takes the
    /// JWT the runner mints (and the apikey, if one is sent) on `rpc/pull`.
    /// - Throws: `SetupProblem` saying what is wrong and how to fix it.
    public func preflight() async throws(SetupProblem) {
        // What a Supabase user pastes: the REST mount, where Accord adds it itself.
        let path = URLComponents(string: base)?.path ?? ""
        let mount = String(PostgRESTSurface.rpcPrefix.dropLast("/rpc/".count))  // "/rest/v1"
        if path.hasSuffix(mount) || path.hasSuffix(mount + "/") {
            let root = String(base.dropLast(path.count))
            throw SetupProblem(
                "--server \(base) ends in \(path), which Accord adds itself (\(PostgRESTSurface.rpcPath("pull")), /accord/fixtures/…)",
                fix: "pass the server's base URL, \(root)")
        }
        let step: ClientResponse
        do {
            var body: [UInt8] = []
            CanonicalJSON.writeCompact(FixtureRequest.body(step: 1), into: &body)
            step = try await session.send(
                "POST", base + "/accord/fixtures/step", headers: [("Content-Type", "application/json")], body: body, timeout: 5)
        } catch {
            throw SetupProblem(
                "the server at \(base) is not reachable (\(error))", fix: "start it, or pass the URL it listens on to --server")
        }
        if step.status == 404 {
            throw SetupProblem(
                "the fixture endpoint is off: POST \(base)/accord/fixtures/step answered HTTP 404",
                fix: path.isEmpty || path == "/"
                    ? "start the server with its fixture endpoint on (accord serve --fixtures; docs/server-contract.md)"
                    : "pass the URL the server is mounted at (Accord adds /accord/fixtures/… and \(PostgRESTSurface.rpcPrefix)… to \(path)), or start it with its fixture endpoint on (accord serve --fixtures)"
            )
        }
        let pull: ClientResponse
        do {
            var body: [UInt8] = []
            let empty: JSONValue = [:]
            CanonicalJSON.writeCompact(empty, into: &body)
            pull = try await session.send(
                "POST", base + PostgRESTSurface.rpcPath("pull"), headers: rpcHeaders(Self.preflightCaller), body: body, timeout: 5)
        } catch {
            throw SetupProblem("the server at \(base) stopped answering (\(error))", fix: "check that it is running")
        }
        if pull.status == 401 || pull.status == 403 {
            throw SetupProblem(
                "the server refused the runner's credentials: rpc/pull answered HTTP \(pull.status)\(Self.postgRESTError(pull.body))",
                fix: apiKey == nil
                    ? "pass the secret it verifies JWTs with (--jwt-secret or $ACCORD_JWT_SECRET), and --apikey if it wants one"
                    : "pass the secret it verifies JWTs with (--jwt-secret or $ACCORD_JWT_SECRET) and the --apikey it expects")
        }
    }

    /// ` (CODE: message)` from a PostgREST error body, or nothing.
    static func postgRESTError(_ body: [UInt8]) -> String {
        guard let json = try? JSONParser.parse(body), json.objectValue != nil else { return "" }
        let code = json["code"]?.stringValue
        let message = json["message"]?.stringValue
        switch (code, message) {
        case (let code?, let message?): return " (\(code): \(message))"
        case (let code?, nil): return " (\(code))"
        case (nil, let message?): return " (\(message))"
        case (nil, nil): return ""
        }
    }
}
