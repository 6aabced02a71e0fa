import JSON
import KizunaWire
import ServerContract

/// One SQL function reached as an RPC, the way PostgREST reaches it: the request body's
/// top-level keys are its named arguments (a key that names none, or a required argument left
/// out, is PostgREST's 404 `PGRST202`), each value converted to the argument's type by
/// `json_to_record`, then `select <schema>.<name>(arg := value, …)`.
struct RPCFunction: Sendable, Hashable {
    /// One argument, as the catalog has it.
    struct Argument: Sendable, Hashable {
        var name: String
        /// `format_type` of its type, e.g. "jsonb", "integer".
        var type: String
    }

    var schema: String
    var name: String
    var arguments: [Argument]
    /// How many leading arguments have no default.
    var required: Int

    /// What a body makes of a call.
    enum Call: Sendable, Hashable {
        /// The statement to run; its one parameter is the body as JSON text.
        case statement(String)
        /// The PostgREST reply that refuses the body before any SQL runs.
        case refused(RPCReply)
    }

    /// The call a body makes.
    func call(_ body: JSONObject) -> Call {
        let given = Set(body.keys)
        let known = Set(arguments.map(\.name))
        let missing = arguments.prefix(required).map(\.name).filter { !given.contains($0) }
        guard given.isSubset(of: known), missing.isEmpty else {
            let names = body.keys.sorted().joined(separator: ", ")
            return .refused(
                RPCReply(
                    status: 404,
                    body: PostgRESTSurface.errorBody(
                        code: "PGRST202", message: "Could not find the function \(schema).\(name)(\(names)) in the schema cache",
                        details:
                            "Searched for the function \(schema).\(name) with parameters \(names) or with a single unnamed json/jsonb parameter, but no matches were found in the schema cache."
                    )))
        }
        let used = arguments.filter { given.contains($0.name) }
        let named = used.map { "\(Self.quoted($0.name)) := _.\(Self.quoted($0.name))" }.joined(separator: ", ")
        let record = used.map { "\(Self.quoted($0.name)) \($0.type)" }.joined(separator: ", ")
        let source = used.isEmpty ? "" : " from json_to_record($1::json) as _(\(record))"
        return .statement("select \(Self.quoted(schema)).\(Self.quoted(name))(\(named))::text\(source)")
    }

    /// A SQL identifier in double quotes.
    static func quoted(_ identifier: String) -> String { "\"" + identifier.replacingOccurrences(of: "\"", with: "\"\"") + "\"" }
}
