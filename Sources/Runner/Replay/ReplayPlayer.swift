import Corpus
import KizunaWire
import ServerContract

/// One recorded exchange as replayed against a live target.
struct LiveExchange: Sendable {
    /// What happened when the exchange was replayed.
    enum Outcome: Sendable {
        /// Sent and answered: the body sent (bindings applied), the substitutions made, the
        /// reply, what its response taught the bindings, and the recorded response translated
        /// through them.
        case answered(
            sent: JSONValue, substitutions: [Bindings.Substitution], reply: RPCReply, learning: Bindings.Learning, translated: JSONValue)
        /// Not sent, with the reason.
        case skipped(String)
        /// The target could not be driven.
        case errored(String)
    }

    var exchange: RecordedExchange
    var session: RecordedSession
    var outcome: Outcome
    /// Seconds spent sending it and reading the answer.
    var seconds: Double = 0

    /// "exchange 12 push (client …0001)".
    var name: String { "exchange \(exchange.number) \(exchange.rpc) (\(session.shortLabel))" }
}

/// Sends a recording's requests to one freshly seeded target, in recording order, each as the
/// user and client of its session, with the recording's bindings applied to every request (one
/// set for the recording: the recorded server made one global sequence, so a recorded cursor
/// means the same position whichever session carries it). Sessions share the target, so
/// what one client pushed is there when another pulls or replays it. The logical clock is set to
/// the exchange number before each exchange (a recording converted from a transcript numbers
/// exchanges by step, so the reference server stamps the transcript's `deleted_at`).
enum ReplayPlayer {
    static func play(_ recording: RecordingContents, seed: Seed, makeTarget: ServerRun.TargetFactory) async -> [LiveExchange] {
        var results: [LiveExchange] = []
        var stopped: String?
        var target: (any ServerTarget)?
        var seedReported = false
        var bindings = Bindings()
        do throws(TargetError) {
            let made = try makeTarget()
            let wall = try await made.capabilities().clock == .wall
            let before = CasePlay.wallClockSecond()
            let receipt = try await made.seed(seed)
            if wall { bindings.notBefore = receipt.seededAt ?? before }
            // Recordings are not checked for density: their recorded base is unknown.
            _ = bindings.bind(seed: seed, receipt: receipt)
            target = made
        } catch {
            stopped = "seed: \(error)"
        }
        for exchange in recording.exchanges {
            let session = RecordedSession(of: exchange)
            let started = ContinuousClock.now
            func record(_ outcome: LiveExchange.Outcome) {
                results.append(
                    LiveExchange(exchange: exchange, session: session, outcome: outcome, seconds: RunClock.seconds(since: started)))
            }
            if exchange.rpc == "http" {
                record(.skipped("not a pull or push exchange (\(exchange.method) \(exchange.path)): plain HTTP is recorded, not replayed"))
                continue
            }
            guard let user = session.user else {
                record(.skipped("no user identity was recorded for this exchange: the runner cannot mint its JWT"))
                continue
            }
            guard let live = target else {
                record(seedReported ? .skipped("not run: \(stopped ?? "no target")") : .errored(stopped ?? "no target"))
                seedReported = true
                continue
            }
            if let stopped {
                record(.skipped("not run: \(stopped)"))
                continue
            }
            let (sent, substitutions) = bindings.translate(exchange.request)
            do throws(TargetError) {
                let identity = Identity(user: user, session: session.client)
                try await live.setStep(exchange.number)
                let reply = exchange.rpc == "pull" ? try await live.pull(sent, as: identity) : try await live.push(sent, as: identity)
                var learning = Bindings.Learning()
                if (200..<300).contains(exchange.status) && (200..<300).contains(reply.status) {
                    learning = bindings.learn(
                        golden: exchange.response, live: reply.body, at: "exchange \(exchange.number) \(exchange.rpc)")
                }
                record(
                    .answered(
                        sent: sent, substitutions: substitutions, reply: reply, learning: learning,
                        translated: bindings.translate(exchange.response).0))
            } catch {
                stopped = "\(error)"
                record(.errored("\(error)"))
            }
        }
        return results
    }

    /// The seed for a recording: its inferred configuration (or the given one), seq from 1, no
    /// history.
    /// - Parameters:
    ///   - recording: the recording.
    ///   - config: a configuration that overrides the inferred one.
    /// - Returns: the seed.
    static func seed(for recording: RecordingContents, config: ServerConfig?) -> Seed {
        Seed(server: config ?? ServerInference.config(from: recording.exchanges))
    }
}
