import Dispatch
import Glibc

/// Dispatch sources for some signals, owned by one waiting task and cancelled when it ends;
/// the sources are only touched here and by Dispatch, which serializes their handlers.
final class SignalSources: @unchecked Sendable {
    private let sources: [any DispatchSourceSignal]

    init(_ numbers: [Int32], handler: @escaping @Sendable (Int32) -> Void) {
        sources = numbers.map { number in
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler { handler(number) }
            source.resume()
            return source
        }
    }

    func cancel() {
        for source in sources { source.cancel() }
    }
}

/// SIGINT or SIGTERM, caught from the moment it is armed. A command arms it before it says it is
/// listening, so a signal sent as soon as that line is read is kept for `wait()`, neither lost
/// (ignored before a source existed) nor fatal (the default action, before it was ignored).
struct Interrupt: Sendable {
    private let stream: AsyncStream<Int32>

    /// Ignores the two signals' default actions and starts catching them.
    static func arm() -> Interrupt {
        signal(SIGINT, SIG_IGN)
        signal(SIGTERM, SIG_IGN)
        let stream = AsyncStream<Int32>(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let sources = SignalSources([SIGINT, SIGTERM]) { continuation.yield($0) }
            continuation.onTermination = { _ in sources.cancel() }
        }
        return Interrupt(stream: stream)
    }

    /// Returns once a signal has come, at once if one came since `arm()`.
    func wait() async {
        for await _ in stream { break }
    }
}
