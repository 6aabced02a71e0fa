import AccordDriver
import Foundation

/// The I/O half of a client-lane play: one driver channel, the request ids and the timeout. It
/// sends requests and reads answers, and says when the driver is broken; it judges nothing.
struct DriverSession {
    /// A driver answer, or why there is none.
    enum Answer {
        case result(DriverResult)
        case failure(DriverFailure)
        case broken(String)
    }

    /// The running driver.
    private(set) var channel: any DriverChannel
    /// How long one request may take.
    let timeout: Duration
    private(set) var nextID = 1

    init(channel: any DriverChannel, timeout: Duration) {
        self.channel = channel
        self.timeout = timeout
    }

    /// The request for the next id.
    mutating func request(_ body: DriverRequest.Body) -> DriverRequest {
        defer { nextID += 1 }
        return DriverRequest(id: nextID, body)
    }

    /// Continues with a fresh driver (after a kill); request ids go on.
    mutating func replace(with channel: any DriverChannel) { self.channel = channel }

    /// Kills the driver at once.
    func kill() async { await channel.kill() }

    /// Ends the driver's input and waits for its exit; a description of an unclean ending, else nil.
    func finish(timeout: Duration) async -> String? { await channel.finish(timeout: timeout) }

    /// Sends one request and reads its answer; a timeout, crash or bad line is `.broken`.
    mutating func call(_ body: DriverRequest.Body, timeout override: Duration? = nil) async -> Answer {
        let request = self.request(body)
        await channel.send(request.line, timeout: override ?? timeout)
        switch await channel.nextLine(timeout: override ?? timeout) {
        case .timedOut:
            await channel.kill()
            return .broken("the driver timed out on \(body.op.rawValue) id \(request.id) after \(override ?? timeout)\(tail)")
        case .ended:
            let ending = await channel.finish(timeout: .seconds(1)) ?? "the driver closed its output"
            return .broken("\(ending) while handling \(body.op.rawValue) id \(request.id)\(tail)")
        case .line(let bytes):
            return await decode(bytes, answering: request)
        case .tooLong(let limit):
            await channel.kill()
            return .broken(Self.tooLong(limit, answering: request))
        }
    }

    /// The break of an answer line over the runner's limit.
    static func tooLong(_ limit: Int, answering request: DriverRequest) -> String {
        "DRIVER_BAD_RESPONSE to \(request.body.op.rawValue) id \(request.id): the answer is a line over \(limit / (1024 * 1024)) MiB, the longest the runner reads (docs/driver-protocol.md §2); the driver was killed"
    }

    /// Decodes an answer line for a request; a line that breaks the protocol kills the driver.
    func decode(_ bytes: [UInt8], answering request: DriverRequest) async -> Answer {
        let op = request.body.op
        do throws(DriverError) {
            let response = try DriverResponse(line: bytes, answering: op)
            guard response.id == request.id else {
                await channel.kill()
                return .broken("the answer to \(op.rawValue) id \(request.id) carries id \(response.id.map(String.init) ?? "null")")
            }
            if let result = response.result { return .result(result) }
            if let failure = response.failure { return .failure(failure) }
            return .broken("the answer to \(op.rawValue) id \(request.id) is empty")
        } catch {
            await channel.kill()
            return .broken(
                "DRIVER_BAD_RESPONSE to \(op.rawValue) id \(request.id): \(error); line: \(String(decoding: bytes.prefix(300), as: UTF8.self))"
            )
        }
    }

    var tail: String {
        let text = channel.stderrTail.trimmingCharacters(in: .whitespacesAndNewlines)
        return text.isEmpty ? "" : "; stderr tail: \(text.suffix(600))"
    }

}
