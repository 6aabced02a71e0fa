import JSON
import KizunaWire
import ServerContract

extension PostgresTarget {
    /// Calls `<schema>.pull` as PostgREST would for `POST /rest/v1/rpc/pull`.
    /// - Parameters:
    ///   - body: the request body (the function's named arguments).
    ///   - identity: the caller: the JWT claims' `sub` and `session_id`.
    /// - Returns: the function's result (200), or the PostgREST error reply its SQL error maps to.
    /// - Throws: `TargetError.unreachable` when the database connection fails.
    public func pull(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply {
        let reply = try await call("pull", body, as: identity)
        guard reply.status == 200, config.rows == .asWritten else { return reply }
        return RPCReply(status: 200, body: projection.projectPull(reply.body))
    }

    /// Calls `<schema>.push` as PostgREST would for `POST /rest/v1/rpc/push`.
    /// - Returns: the function's result (200), or the PostgREST error reply its SQL error maps to.
    /// - Throws: `TargetError.unreachable` when the database connection fails.
    public func push(_ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply {
        projection.noteWrites(ofPush: body)
        let reply = try await call("push", body, as: identity)
        guard reply.status == 200, config.rows == .asWritten else { return reply }
        return RPCReply(status: 200, body: projection.projectPush(reply.body, request: body))
    }

    /// One RPC in one transaction: `set local role`, `request.jwt.claims` as PostgREST sets
    /// them, the call, commit (where the pack's commit-time stamp runs). A SQL error at any of
    /// them rolls back and becomes PostgREST's reply for its SQLSTATE.
    private func call(_ name: String, _ body: JSONValue, as identity: Identity) async throws(TargetError) -> RPCReply {
        let connections: Connections
        do throws(PostgresError) { connections = try await self.connections() } catch { throw await targetError(error) }
        guard let object = body.objectValue else {
            return .error(status: 400, code: "PGRST102", message: "The request body must be a JSON object, found \(body.typeName)")
        }
        guard let function = connections.functions[name] else {
            return .error(
                status: 404, code: "PGRST202", message: "Could not find the function \(config.schema).\(name) in the schema cache")
        }
        let statement: String
        switch function.call(object) {
        case .refused(let refusal): return refusal
        case .statement(let sql): statement = sql
        }
        var claims: JSONObject = ["role": .string(config.role)]
        if let session = identity.session { claims.append(PostgRESTSurface.Claim.session, .string(session)) }
        claims.append(PostgRESTSurface.Claim.user, .string(identity.user))
        let rpc = connections.rpc
        let context = "rpc/\(name)"
        let text: String?
        do throws(PostgresError) {
            try await rpc.execute("begin; set local role \(RPCFunction.quoted(config.role));", context: context)
            try await rpc.execute(
                "select set_config('request.jwt.claims', $1, true), set_config('request.method', 'POST', true), set_config('request.path', $2, true)",
                [CanonicalJSON.compact(.object(claims)), "/rpc/\(name)"], context: context)
            let result = try await rpc.execute(statement, [CanonicalJSON.compact(body)], context: context)
            try await rpc.execute("commit", context: context)
            text = result.scalar
        } catch {
            _ = try? await rpc.execute("rollback", context: context)
            guard let state = error.sqlState, let fields = error.fields, !error.isConnectionFailure else {
                throw await targetError(error)
            }
            return .sqlError(sqlState: state, message: fields.message, details: fields.detail, hint: fields.hint)
        }
        guard let text else { return RPCReply(status: 200, body: .null) }
        do throws(JSONParseError) {
            return RPCReply(status: 200, body: try JSONParser.parse(Array(text.utf8)))
        } catch {
            throw TargetError.refused("\(config.schema).\(name) returned text that is not JSON: \(error)")
        }
    }
}
