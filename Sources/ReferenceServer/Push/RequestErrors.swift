import KizunaWire
import ServerContract

/// PostgREST-shaped replies for request bodies the strict decoders refuse.
enum RequestErrors {
    static func reply(for error: WireError) -> RPCReply {
        let code = error.kind == .malformedCursor ? "22P02" : "22023"
        return .error(status: 400, code: code, message: error.description)
    }
}
