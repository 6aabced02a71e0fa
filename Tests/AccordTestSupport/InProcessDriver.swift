import AccordDriver
import Corpus
import Foundation
import KizunaWire
import Lanes

/// A driver run inside this process: a `KizunaSync.EngineDriver` behind `DriverLoop`, joined to the
/// runner by in-memory pipes. Tests use it to put small engines through the client lane.
public final class InProcessDriver: DriverChannel {
    private let toDriver = DriverPipe()
    private let lines = LineQueue()
    private let loop: Task<DriverLoop.Ending, Never>

    /// Starts the loop over an engine.
    /// - Parameter engine: the engine under test.
    public init<Engine: KizunaSync.EngineDriver & Sendable>(engine: Engine) {
        let fromDriver = DriverPipe()
        let input = toDriver.reader()
        loop = Task {
            let ending = await DriverLoop.run(engine: engine, input: input, output: fromDriver)
            fromDriver.finish()
            return ending
        }
        let lines = self.lines
        Task {
            var reader = fromDriver.reader()
            var splitter = LineSplitter()
            while let chunk = try? await reader.read() { splitter.feed(chunk, into: lines) }
            splitter.finish(into: lines)
        }
    }

    /// Hands a request line to the loop.
    public func send(_ line: [UInt8], timeout: Duration) async { toDriver.send(line) }

    /// Waits for the next answer line.
    public func nextLine(timeout: Duration) async -> DriverLineEvent { await lines.next(timeout: timeout) }

    /// Ends the loop's input and waits for it, at most `timeout`.
    public func finish(timeout: Duration) async -> String? {
        toDriver.finish()
        let loop = self.loop
        let ended = await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                _ = await loop.value
                return true
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                if !Task.isCancelled { loop.cancel() }
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
        if ended { return nil }
        return "the in-process engine did not stop within \(timeout) of the end of its input"
    }

    /// Ends the loop's input and cancels it; an in-process engine cannot be killed harder than that.
    public func kill() async {
        toDriver.finish()
        loop.cancel()
    }

    /// In-process engines log nowhere the runner reads.
    public var stderrTail: String { "" }

    /// An engine in this process has no exit status.
    public var ending: DriverEnding? { nil }
}
