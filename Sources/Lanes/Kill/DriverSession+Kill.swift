import AccordDriver
import Foundation
import KizunaWire

extension DriverSession {
    /// How a request sent with a kill armed ended.
    enum KilledCall {
        /// The runner killed the driver at the trigger, before it answered.
        case killed
        /// The driver died by itself before answering: the report's text (ending and stderr tail) and its exit status.
        case died(String, DriverEnding?)
        /// The driver answered first.
        case answered(Answer)
    }

    /// When the runner kills the driver during a call.
    enum KillTrigger: Sendable {
        /// Never: the call ends with the driver's answer or death (a hooked driver dies by itself).
        case never
        /// As soon as the mock's counter passes a value, after a grace period.
        case mock(KizunaSync.Mock.Counter, passes: Int, grace: Duration)
    }

    /// Sends a request and waits for its answer, killing the driver as soon as `trigger` fires:
    /// the answer line and the trigger race, and whichever comes first decides.
    mutating func callKilling(_ body: DriverRequest.Body, when trigger: KillTrigger, mock: KizunaSync.Mock) async -> KilledCall {
        let request = self.request(body)
        await channel.send(request.line, timeout: timeout)
        enum First: Sendable {
            case line(DriverLineEvent)
            case trigger
        }
        let (channel, timeout) = (self.channel, self.timeout)
        let first = await withTaskGroup(of: First.self) { group in
            group.addTask { .line(await channel.nextLine(timeout: timeout)) }
            if case .mock(let counter, let count, let grace) = trigger {
                group.addTask {
                    await mock.wait(until: counter, passes: count)
                    // polling-allowed: not a poll; the hooked driver's grace period to die at its own seam first.
                    if grace > .zero { try? await Task.sleep(for: grace) }
                    return .trigger
                }
            }
            let first = await group.next() ?? .line(.timedOut)
            // The line task ends when the killed driver's output closes; the trigger task is cancelled.
            if case .trigger = first { await channel.kill() }
            group.cancelAll()
            return first
        }
        switch first {
        case .trigger:
            return .killed
        case .line(.timedOut):
            await channel.kill()
            return .answered(.broken("the driver timed out on \(body.op.rawValue) id \(request.id) after \(timeout)\(tail)"))
        case .line(.ended):
            let ending = await channel.finish(timeout: .seconds(1)) ?? "the driver closed its output"
            return .died("\(ending)\(tail)", channel.ending)
        case .line(.line(let bytes)):
            return .answered(await decode(bytes, answering: request))
        case .line(.tooLong(let limit)):
            await channel.kill()
            return .answered(.broken(Self.tooLong(limit, answering: request)))
        }
    }
}
