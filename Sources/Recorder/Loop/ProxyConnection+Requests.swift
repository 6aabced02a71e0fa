import HTTP
import PowerSyncWire
import Transport

/// A connection's requests: parsing what arrived, answering locally, refusing, forwarding to the
/// upstream and going on once the exchange ends, with the buffer budget charged as it goes.
extension ProxyConnection {
    /// Parses what has arrived: forwards a whole request, refuses a bad one, or waits for more.
    func process() {
        while isReading {
            switch machine.next() {
            case .request(let request):
                if Self.asksForWebSocket(request) {
                    // Forwarded without its hop-by-hop `Upgrade`, it would reach the upstream as a
                    // plain GET and fail there with a puzzling answer: say what happened instead.
                    refuse(
                        .notImplemented(
                            "accord record does not relay WebSocket upgrades (e.g. Supabase Realtime); connect that client to the upstream directly"
                        ))
                    return
                }
                if let answer = RecordingProxy.localAnswer(to: request) {
                    answerLocally(answer, to: request)
                    continue
                }
                // A request read ahead whole (never charged at its head) is forwarded only if its
                // copies fit the budget.
                let budget = loop.proxy.budget
                if !settleCharge() || budget.held + Self.forwardedCopies * request.body.count > budget.limit {
                    refuse(
                        .unavailable("the proxy's connections hold requests over its \(budget.limit)-byte buffer budget (--buffer-budget)"))
                    return
                }
                begin(request)
            case .refuse(let error):
                refuse(error)
            case .sendContinue:
                HTTPConnectionMachine.continueLine.withUnsafeBytes { output.append($0) }
                loop.markDirty(self)
            case .readMore where machine.isPartial:
                if !settleCharge(arriving: true) {
                    let limit = loop.proxy.budget.limit
                    refuse(.unavailable("the proxy's connections hold requests over its \(limit)-byte buffer budget (--buffer-budget)"))
                }
                return
            case .readMore, .close:
                _ = settleCharge()
                return
            }
        }
        _ = settleCharge()
    }

    /// The copies of a forwarded body alive at once: the request's and libcurl's
    /// (`CURLOPT_COPYPOSTFIELDS`).
    static var forwardedCopies: Int { 2 }

    /// Brings the connection's charge to the request bytes it holds or is about to: its unparsed
    /// input (a buffer over 1 MiB by its capacity; for a request whose head declared its length,
    /// the whole request from the head on, twice, as it will cost once forwarded, so a body is
    /// refused before it arrives, not after),
    /// a chunked body being decoded and the body of the request being forwarded, with libcurl's
    /// copy of it.
    /// - Returns: whether the proxy's connections together are still within the budget.
    /// - Parameter arriving: whether a request is arriving: the total must then stay within
    ///   `BufferBudget.arrivingLimit`, not the whole limit (a body still arriving when others
    ///   have taken the total past it is refused, and its bytes let go).
    @discardableResult
    func settleCharge(arriving: Bool = false) -> Bool {
        // A closed connection holds nothing: a transfer cancelled as it closes must not charge
        // again what `closeDown()` refunded.
        guard !isClosed else { return true }
        // A large buffer's pages stay in use up to its capacity once touched (a compaction
        // moves bytes down, it does not give pages back): it counts whole.
        let buffer = machine.buffer
        let buffered = buffer.capacity > 1 << 20 ? buffer.capacity : machine.unread
        let framed = max(buffered, Self.forwardedCopies * (machine.expectedLength ?? 0))
        var forwarded = 0
        if case .forwarding(let exchange, _) = phase { forwarded = exchange.request.body.count }
        let holding = framed + machine.heldBodyBytes + Self.forwardedCopies * forwarded
        let budget = loop.proxy.budget
        defer { charged = holding }
        guard holding > charged else {
            if holding < charged { budget.refund(charged - holding) }
            return holding == 0 || budget.held <= (arriving ? budget.arrivingLimit : budget.limit)
        }
        return budget.charge(holding - charged, within: arriving ? budget.arrivingLimit : budget.limit)
    }

    /// Queues the proxy's own answer (`OPTIONS *`); nothing is forwarded or recorded.
    func answerLocally(_ answer: HTTPResponse, to request: HTTPRequest) {
        let keepAlive = request.keepAlive && !loop.proxy.isStopping
        answer.serialized(version: request.version, keepAlive: keepAlive, date: HTTPDate.now()).withUnsafeBytes { output.append($0) }
        machine.answered(keepAlive: keepAlive)
        if !keepAlive { phase = .closing }
        loop.markDirty(self)
    }

    /// Forwards a request to the upstream; its answer is queued as it arrives.
    func begin(_ request: HTTPRequest) {
        let proxy = loop.proxy
        guard !proxy.isStopping else {
            // Answered, so the client knows it was not forwarded; not recorded, like any refusal.
            let refusal = HTTPResponse.plain(.unavailable("accord record is stopping; the request was not forwarded"))
            refusal.serialized(version: request.version, keepAlive: false, date: HTTPDate.now()).withUnsafeBytes { output.append($0) }
            machine.answered(keepAlive: false)
            phase = .closing
            loop.markDirty(self)
            return
        }
        var inputClosed = false
        if case .reading(let reading) = phase { inputClosed = reading.inputClosed }
        let stream = HTTPResponseStream(
            output: output, version: request.version, omitBody: request.method == "HEAD", keepAlive: request.keepAlive && !proxy.isStopping)
        let relay = ResponseRelay(stream: stream, output: output, limit: proxy.configuration.recordedBodyLimit)
        relay.tracksArrivals = PowerSync.Surface.route(atPath: request.path)?.answersNDJSON == true
        relay.queued = { [unowned self] in sendNow() }
        relay.firstBodySent = { Self.yieldToReader() }
        let exchange = Exchange(request: request, relay: relay, begin: loop.clock.now)
        phase = .forwarding(exchange, inputClosed: inputClosed)
        let transfer = loop.multi.start(proxy.upstreamRequest(request), sink: relay) { [unowned self] outcome in
            complete(outcome)
        }
        guard let transfer else {
            complete(.notStarted("libcurl refused the transfer"))
            return
        }
        if case .forwarding(let current, _) = phase, current === exchange { exchange.transfer = transfer }
        loop.markDirty(self)
    }

    /// The upstream transfer ended: the exchange is recorded, the answer completed, and the
    /// connection goes on to its next request or closes.
    func complete(_ outcome: StreamingOutcome) {
        switch phase {
        case .forwarding(let exchange, let inputClosed):
            // Out of `.forwarding` while it is recorded: the body stays charged until the
            // charge is settled after it.
            phase = .closing
            loop.proxy.conclude(outcome, request: exchange.request, relay: exchange.relay, begin: exchange.begin)
            settleCharge()
            guard case .closing = phase else { return }
            loop.markDirty(self)
            let keepAlive = exchange.relay.stream.keepsAlive && !output.failed && !loop.proxy.isStopping
            machine.answered(keepAlive: keepAlive)
            guard keepAlive else { return }
            let now = loop.clock.now
            phase = .reading(
                Reading(
                    requestDeadline: now + loop.proxy.configuration.readTimeout, idleDeadline: now + loop.proxy.configuration.idleTimeout,
                    inputClosed: inputClosed))
            process()
            if case .reading(let reading) = phase, reading.inputClosed { phase = .closing }
        case .closed(let abandoned?):
            // Cancelled as the connection closed: recorded as such, nothing more to send.
            phase = .closed(abandoned: nil)
            loop.proxy.conclude(outcome, request: abandoned.request, relay: abandoned.relay, begin: abandoned.begin)
        default:
            break
        }
    }

    /// Queues the refusal of a bad request; the connection then drains its input and closes.
    func refuse(_ error: HTTPError) {
        let response = HTTPResponse.plain(error).serialized(keepAlive: false, date: HTTPDate.now())
        response.withUnsafeBytes { output.append($0) }
        var idleSince = loop.clock.now
        if case .reading(let reading) = phase { idleSince = reading.idleDeadline - loop.proxy.configuration.idleTimeout }
        machine.end()
        // The drain's second starts once the refusal is out (`flush`); until then the write
        // timeout governs, so an answer still queued ahead of it is not cut.
        phase = .refusing(Drain(idleSince: idleSince, deadline: loop.clock.now + Self.writeTimeout))
        settleCharge()
        loop.markDirty(self)
    }
}
