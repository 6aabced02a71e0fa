import Corpus
import Harness
import JSON
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
    /// The world changes applied just before it.
    var world: [WorldChange] = []
    /// Seconds spent sending it and reading the answer.
    var seconds: Double = 0

    /// "exchange 12 push (client …0001)".
    var name: String { "exchange \(exchange.number) \(exchange.rpc) (\(session.shortLabel))" }
}

/// Replays a recording's exchanges, one at a time in recording order, on one target seeded with
/// the world the recording implies (`RecordedWorld`: its history in the seed, every other change
/// applied just before the exchange it precedes), each exchange as the user and client of its
/// session, with the recording's bindings applied (one set for the recording: the recorded
/// server made one global sequence, so a recorded cursor means the same position whichever
/// session carries it; recorded times are matched by order, `Bindings.TimeMatching.order`).
/// Sessions share the target, so what one client pushed is there when another pulls or replays
/// it. The logical clock is set to the exchange number before each exchange and its world
/// changes (a recording converted from a transcript numbers exchanges by step, so the reference
/// server stamps the transcript's `deleted_at`).
struct ReplayPlayer {
    /// Where the replay stands: not yet seeded, playing on a seeded target, or stopped by a target
    /// that could not be driven (the first exchange after that reports the reason as an error,
    /// the rest as not run).
    enum Phase {
        case unseeded(KizunaSync.TargetFactory)
        case playing(any KizunaSync.ServerTarget)
        case stopped(String, reported: Bool)
    }

    private(set) var phase: Phase
    private(set) var bindings = Bindings(times: .order)
    let world: RecordedWorld

    init(world: RecordedWorld, makeTarget: @escaping KizunaSync.TargetFactory) {
        self.world = world
        self.phase = .unseeded(makeTarget)
    }

    /// The seed a recording's world implies: its configuration and history, seq from 1.
    static func seed(for world: RecordedWorld) -> Seed {
        Seed(server: world.server, history: world.history.map(fixture))
    }

    /// A world change as the fixture contract applies it.
    static func fixture(_ change: WorldChange) -> FixtureChange {
        switch change.operation {
        case .upsert(let columns): .upsert(table: change.table, pk: change.pk, columns: columns, actor: WorldChange.actor, hlc: change.hlc)
        case .delete: .delete(table: change.table, pk: change.pk, actor: WorldChange.actor)
        case .reap: .reap
        }
    }

    /// Replays one exchange.
    mutating func play(_ exchange: RecordedExchange) async -> LiveExchange {
        let session = RecordedSession(of: exchange)
        let started = ContinuousClock.now
        var live = LiveExchange(exchange: exchange, session: session, outcome: .skipped(""))
        func ended(_ outcome: LiveExchange.Outcome) -> LiveExchange {
            live.outcome = outcome
            live.seconds = RunClock.seconds(since: started)
            return live
        }
        if exchange.rpc != "pull" && exchange.rpc != "push" {
            return ended(
                .skipped("not a pull or push exchange (\(exchange.method) \(exchange.path)): plain HTTP is recorded, not replayed"))
        }
        if let reason = exchange.unreplayableReason { return ended(.skipped("not replayed: \(reason)")) }
        guard let user = session.user else {
            return ended(.skipped("no user identity was recorded for this exchange: the runner cannot mint its JWT"))
        }
        if case .unseeded(let makeTarget) = phase { await begin(makeTarget) }
        let target: any KizunaSync.ServerTarget
        switch phase {
        case .playing(let seeded): target = seeded
        case .stopped(let reason, reported: false):
            phase = .stopped(reason, reported: true)
            return ended(.errored(reason))
        case .stopped(let reason, reported: true): return ended(.skipped("not run: \(reason)"))
        case .unseeded: return ended(.errored("the target was never seeded"))
        }
        do throws(TargetError) {
            try await target.setStep(exchange.number)
            for change in world.changes[exchange.number] ?? [] {
                do throws(TargetError) { try await target.apply(Self.fixture(change), heldIn: nil) } catch {
                    return ended(.errored("the world before it could not be applied: \(change): \(error)"))
                }
                live.world.append(change)
            }
            let (sent, substitutions) = bindings.translate(exchange.request)
            let identity = Identity(user: user, session: session.client)
            let reply = exchange.rpc == "pull" ? try await target.pull(sent, as: identity) : try await target.push(sent, as: identity)
            var learning = Bindings.Learning()
            if (200..<300).contains(exchange.status) && (200..<300).contains(reply.status) {
                learning = bindings.learn(golden: exchange.response, live: reply.body, at: "exchange \(exchange.number) \(exchange.rpc)")
            }
            let translated = bindings.translate(exchange.response, answeredBy: reply.body)
            return ended(.answered(sent: sent, substitutions: substitutions, reply: reply, learning: learning, translated: translated))
        } catch {
            phase = .stopped("\(error)", reported: true)
            return ended(.errored("\(error)"))
        }
    }

    /// Makes and seeds the target; a recording's seed binds nothing (its recorded positions are
    /// learned from the answers), a wall-clock target's seed time bounds its times.
    private mutating func begin(_ makeTarget: KizunaSync.TargetFactory) async {
        do throws(TargetError) {
            let made = try makeTarget()
            let wall = try await made.capabilities().clock == .wall
            let before = KizunaSync.ServerPlay.wallClockSecond()
            let receipt = try await made.seed(Self.seed(for: world))
            if wall { bindings.notBefore = receipt.seededAt ?? before }
            phase = .playing(made)
        } catch {
            phase = .stopped("seed: \(error)", reported: false)
        }
    }
}
