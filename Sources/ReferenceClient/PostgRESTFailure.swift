import JSON
import KizunaWire

/// A PostgREST error answer (`{code, message, details, hint}` with a 4xx/5xx status), classified as PROTOCOL-NOTES §1 does.
struct PostgRESTFailure: CustomStringConvertible {
    /// The HTTP status.
    var status: Int
    /// The SQLSTATE or PostgREST code, when the body carries one.
    var code: String?
    /// The message, when the body carries one.
    var message: String?

    /// Reads an error answer; a body that is not a PostgREST error object leaves `code` nil.
    init(_ reply: RemoteReply) {
        status = reply.status
        let body = try? JSONParser.parse(reply.body)
        code = body?["code"]?.stringValue
        message = body?["message"]?.stringValue
    }

    /// Whether the failure counts toward dead-lettering (`PermanentCodes`, PROTOCOL-NOTES §1).
    var isPermanent: Bool { PermanentCodes.isPermanent(code, status: status) }

    /// "HTTP 400 23505: message".
    var description: String {
        "HTTP \(status)" + (code.map { " \($0)" } ?? "") + (message.map { ": \($0)" } ?? "")
    }
}
