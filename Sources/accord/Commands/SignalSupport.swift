import Dispatch
import Glibc

/// The pipe the signal handler writes a byte to: made once, before any handler is installed, so
/// the handler only loads two integers and calls write(2), which is async-signal-safe.
private let interruptPipe: (read: Int32, write: Int32) = {
    var ends: [Int32] = [-1, -1]
    guard pipe(&ends) == 0 else { return (-1, -1) }
    for end in ends {
        _ = fcntl(end, F_SETFD, FD_CLOEXEC)
        _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
    }
    return (ends[0], ends[1])
}()

/// SIGINT or SIGTERM, caught from the moment it is armed. A command arms it before it says it is
/// listening, so a signal sent as soon as that line is read is kept for `wait()`: `arm()` installs
/// the handler with sigaction(2) before it returns, and the handler's byte waits in a pipe until
/// it is read. (A Dispatch signal source registers its handler later, on Dispatch's manager
/// thread: a signal sent in between was ignored and lost, and `accord serve` never stopped.)
struct Interrupt: Sendable {
    private let stream: AsyncStream<Void>

    /// Installs the handler for both signals and starts watching the pipe.
    static func arm() -> Interrupt {
        let pipe = interruptPipe
        var action = sigaction()
        action.__sigaction_handler = .init(sa_handler: { _ in
            var byte: UInt8 = 1
            _ = write(interruptPipe.write, &byte, 1)
        })
        action.sa_flags = SA_RESTART
        sigemptyset(&action.sa_mask)
        sigaction(SIGINT, &action, nil)
        sigaction(SIGTERM, &action, nil)
        let stream = AsyncStream<Void>(bufferingPolicy: .bufferingNewest(1)) { continuation in
            let watch = PipeWatch(DispatchSource.makeReadSource(fileDescriptor: pipe.read, queue: .global()))
            watch.source.setEventHandler {
                var bytes = [UInt8](repeating: 0, count: 16)
                _ = read(pipe.read, &bytes, bytes.count)
                continuation.yield()
            }
            watch.source.resume()
            continuation.onTermination = { _ in watch.source.cancel() }
        }
        return Interrupt(stream: stream)
    }

    /// Returns once a signal has come, at once if one came since `arm()`.
    func wait() async {
        for await _ in stream { break }
    }
}

/// The read source on the pipe, owned by one waiting stream and cancelled when it ends; it is
/// only touched there and by Dispatch, which serializes its handler.
private final class PipeWatch: @unchecked Sendable {
    let source: any DispatchSourceRead

    init(_ source: any DispatchSourceRead) { self.source = source }
}
