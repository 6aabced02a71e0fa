import Corpus
import HTTP
import JSON
import KizunaWire

/// Compares a client's RPC with the golden request: method and path, the PostgREST headers,
/// and the body after canonicalization, with bucket order and client-stamped HLCs aside.
struct RequestMatch: Sendable {
    /// What the client must send besides the body.
    struct Expected: Sendable {
        var jwt: String
        var apikey: String
        var clientID: String
    }

    /// The first difference found, with where it is.
    struct Mismatch: Sendable, Hashable {
        var pointer: JSONPointer?
        var message: String
        var expected: String
        var actual: String
    }

    let expected: Expected

    /// Which RPC a request path names, or nil.
    static func rpc(of path: String) -> RPCKind? { PostgRESTSurface.rpc(atPath: path).flatMap(RPCKind.init(rawValue:)) }

    /// The first difference between a request and what the step expects, or nil when it matches.
    /// - Parameters:
    ///   - request: the request the mock received.
    ///   - rpc: the RPC the step expects.
    ///   - golden: the golden body, or nil when any well-formed body of that RPC will do.
    func mismatch(_ request: HTTPRequest, rpc: RPCKind, golden: JSONValue?) -> Mismatch? {
        if request.method != "POST" || Self.rpc(of: request.path) != rpc {
            return Mismatch(
                pointer: nil, message: "expected POST \(PostgRESTSurface.rpcPath(rpc.rawValue)), got \(request.method) \(request.target)",
                expected: "POST \(PostgRESTSurface.rpcPath(rpc.rawValue))", actual: "\(request.method) \(request.target)")
        }
        if let problem = headerProblem(request.headers) { return problem }
        let body: JSONValue
        do {
            body = try JSONParser.parse(request.body)
        } catch {
            return Mismatch(pointer: .root, message: "the body is not JSON: \(error)", expected: "a JSON object", actual: "")
        }
        if let problem = Self.wellFormed(body, rpc: rpc) { return problem }
        guard let golden else { return nil }
        let (actualShape, hlcProblem) = normalize(body)
        if let hlcProblem { return hlcProblem }
        let goldenShape = normalize(golden).0
        guard let at = actualShape.firstDifference(from: goldenShape) else { return nil }
        let expected = goldenShape.value(at: at)
        let actual = actualShape.value(at: at)
        return Mismatch(
            pointer: at,
            message:
                "the body differs from the golden request at \(at.readable): expected \(ExchangeJudge.shown(expected)), sent \(ExchangeJudge.shown(actual))",
            expected: CanonicalJSON.compact(expected ?? .null), actual: CanonicalJSON.compact(actual ?? .null))
    }

    private func headerProblem(_ headers: HTTPHeaders) -> Mismatch? {
        typealias H = PostgRESTSurface.Header
        let required: [(String, (String) -> Bool, String)] = [
            (H.authorization, { $0 == "Bearer \(expected.jwt)" }, "Bearer <the jwt given at open>"),
            (H.apikey, { $0 == expected.apikey }, expected.apikey),
            (H.contentType, { $0.lowercased().hasPrefix("application/json") }, "application/json"),
            (H.contentProfile, { $0 == PostgRESTSurface.profile }, PostgRESTSurface.profile),
            (
                H.accept,
                { value in
                    value.split(separator: ",").contains {
                        let type = $0.split(separator: ";")[0].trimmingCharacters(in: .whitespaces).lowercased()
                        return ["application/json", "application/*", "*/*"].contains(type)
                    }
                }, "application/json"
            ),
        ]
        for (name, accepts, want) in required {
            let value = headers[name]
            if let value, accepts(value) { continue }
            return Mismatch(
                pointer: nil, message: value == nil ? "header \(name) is missing" : "header \(name) is wrong", expected: "\(name): \(want)",
                actual: value.map { "\(name): \($0)" } ?? "(absent)")
        }
        return nil
    }

    /// A body must decode as the RPC's request message.
    static func wellFormed(_ body: JSONValue, rpc: RPCKind) -> Mismatch? {
        do {
            switch rpc {
            case .pull: _ = try PullRequest(json: body, at: .root)
            case .push: _ = try PushRequest(json: body, at: .root)
            }
            return nil
        } catch {
            return Mismatch(
                pointer: error.pointer, message: "the body is not a well-formed \(rpc.rawValue) request: \(error)",
                expected: "a \(rpc.rawValue) request", actual: CanonicalJSON.compact(body))
        }
    }

    /// Buckets sorted by their canonical bytes; each mutation's `hlc`, once checked, replaced by a placeholder.
    private func normalize(_ body: JSONValue) -> (JSONValue, Mismatch?) {
        var result = body
        if case .array(let buckets)? = body["buckets"] {
            let sorted = buckets.sorted { CanonicalJSON.compact($0).utf8.lexicographicallyPrecedes(CanonicalJSON.compact($1).utf8) }
            result = result.replacing(at: JSONPointer(tokens: ["buckets"]), with: .array(sorted))
        }
        guard case .array(let mutations)? = body["batch"]?["mutations"] else { return (result, nil) }
        for (index, mutation) in mutations.enumerated() {
            guard case .string(let hlc)? = mutation["hlc"] else { continue }
            let pointer = JSONPointer(tokens: ["batch", "mutations", String(index), "hlc"])
            if !hlc.hasSuffix("|" + expected.clientID) {
                return (
                    result,
                    Mismatch(
                        pointer: pointer, message: "the hlc's node is not this client's id",
                        expected: "<iso>|<logical>|\(expected.clientID)",
                        actual: hlc)
                )
            }
            result = result.replacing(at: pointer, with: .string("<client hlc>"))
        }
        return (result, nil)
    }
}
