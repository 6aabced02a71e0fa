import Dispatch

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
