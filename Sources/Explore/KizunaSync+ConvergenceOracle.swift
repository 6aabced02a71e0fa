import JSON
import KizunaWire
import ServerContract

extension KizunaSync {
    /// What the convergence oracle found wrong in one played scenario.
    package struct ExploreFinding: Sendable, Hashable {
        /// The oracle's rule: EX-CONVERGE, EX-ACKED-WRITE or EX-EXACTLY-ONCE.
        package var rule: String
        /// The step the finding is pinned to (the device's last pull, or the push that was lost).
        package var step: Int
        package var message: String
        /// Both sides, one per line.
        package var detail: String
    }

    /// What the convergence oracle judged and found.
    package struct ConvergenceVerdict: Sendable, Hashable {
        package var findings: [ExploreFinding]
        /// The devices compared with their user's observer.
        package var devices: Int
        /// Devices not compared although they pulled to completion, with why.
        package var unjudged: [String] = []
    }

    /// The convergence oracle: replays the target's own answers into a replica per device and
    /// per observer, then, once the closing phase has run (every device pushed what it held and
    /// pulled to completion, then an observer per user pulled its buckets from "0"):
    /// - EX-CONVERGE: every device holds exactly the rows, at the same seqs, that its user's
    ///   observer holds (a cursor ahead of its data leaves a row out; a lost tombstone keeps one);
    /// - EX-ACKED-WRITE: on a table resolved by arrival, a row whose last writer was an applied
    ///   mutation shows that mutation's columns (or is gone, for a delete);
    /// - EX-EXACTLY-ONCE: a `todos.likes` counter equals what its applied writes and increments
    ///   add up to, each mutation id counted once however often it was sent.
    /// Nothing is judged of a device that is soft-blocked or whose transfer did not close, nor of
    /// a row another actor's held transaction touched.
    package struct ConvergenceOracle: Sendable {
        package let scenario: ExploreScenario
        package let transcript: ExploreTranscript

        /// Why a device whose bootstrap was paged across a reap is not held to converge: upstream's
        /// protocol lets a transfer from "0" run on however long it takes (AC-EXPIRY, and the SQL
        /// pack's expiry gate, 0001_kizuna_init.sql at 05bc51f1: "A transfer from '0' never
        /// expires"), so a row delivered on an early page, then deleted and its tombstone reaped
        /// before the closing page, stays on the device. `accord explore` found it; the case is
        /// kept as Conformance/transcripts/lifecycle/901 and docs/explore.md argues it.
        package static let bootstrapAcrossReap =
            "its bootstrap was paged across a reap: a transfer from \"0\" never expires, so a row deleted and reaped mid-transfer may stay (a gap of the protocol, docs/explore.md)"

        package init(scenario: ExploreScenario, transcript: ExploreTranscript) {
            self.scenario = scenario
            self.transcript = transcript
        }

        /// Judges the target's answers, by step number (rpc steps, and drop-acks' discarded answers).
        /// `uncompared`: steps whose answer was not compared with the reference's or differed from
        /// it; from there on the golden requests no longer follow the target's conversation, so a
        /// device or observer that pulled at one of them is not judged.
        package func judge(answers: [Int: RPCReply], uncompared: Set<Int> = []) -> ConvergenceVerdict {
            let steps = transcript.json["steps"]?.arrayValue ?? []
            let none = ConvergenceVerdict(findings: [], devices: 0)
            guard steps.count == transcript.stepCount else { return none }
            var devices = scenario.devices.map {
                Replica(client: $0.client, user: scenario.users[$0.user], schemaVersion: $0.schemaVersion, tables: scenario.tables)
            }
            var observers: [Int: Replica] = [:]
            var lastPull: [Int: Int] = [:]
            var observerPulls: [Int: Int] = [:]
            // The last step that may have written a row (a server change, a push, a held
            // transaction's commit): only a pull after it sees the settled world.
            var lastWrite = transcript.held.map(\.commitAfterStep).max() ?? 0
            var acrossReap: Set<Int> = []
            var offTrack: Set<Int> = []
            var offTrackObservers: Set<Int> = []
            var ledger = Ledger(hlcTables: Set(scenario.server.tables.filter { $0.conflictMode == "hlc" }.map(\.name)))
            let heldSteps = Set(transcript.held.map(\.step))
            for (offset, step) in steps.enumerated() {
                let n = offset + 1
                switch step["kind"]?.stringValue {
                case "server":
                    if step["op"]?.stringValue == "reap" {
                        for (number, device) in devices.enumerated() {
                            if case .transferring(_, _, replacing: true) = device.sync { acrossReap.insert(number) }
                        }
                    }
                    guard let key = RowKey(step) else { continue }
                    lastWrite = max(lastWrite, n)
                    if heldSteps.contains(n) { ledger.heldKeys.insert(key) }
                    ledger.changedByOther(key, columns: step["columns"]?.objectValue)
                case "rpc", "fault":
                    guard let caller = transcript.callers[n] else { continue }
                    // An rpc step the lane did not play (it stopped) leaves the scenario unjudged;
                    // a drop-ack's discarded answer may be missing (its resend is answered).
                    guard let answer = answers[n] else {
                        if step["kind"]?.stringValue == "fault" { continue }
                        return none
                    }
                    let request = step["request"] ?? .null
                    if step["rpc"]?.stringValue == "pull" {
                        switch caller {
                        case .device(let device):
                            devices[device].pulled(status: answer.status, body: answer.body)
                            lastPull[device] = n
                            if uncompared.contains(n) { offTrack.insert(device) }
                        case .observer(let user):
                            var observer =
                                observers[user]
                                ?? Replica(
                                    client: scenario.observer(of: user), user: scenario.users[user], schemaVersion: 0,
                                    tables: scenario.tables)
                            observer.pulled(status: answer.status, body: answer.body)
                            observers[user] = observer
                            observerPulls[user] = n
                            if uncompared.contains(n) { offTrackObservers.insert(user) }
                        }
                    } else {
                        lastWrite = max(lastWrite, n)
                        if answer.status == 200 { ledger.pushed(request, answer: answer.body, step: n) }
                    }
                default:
                    continue
                }
            }
            // An observer or device whose last pull came before the last write never saw the world
            // settle (a shrunk scenario may have lost its closing phase): it is not judged.
            let closed = observers.filter {
                $0.value.cursor != nil && (observerPulls[$0.key] ?? 0) > lastWrite && !offTrackObservers.contains($0.key)
            }
            var findings: [ExploreFinding] = []
            var judged = 0
            var unjudged: [String] = []
            for (number, device) in devices.enumerated() {
                let why: String? =
                    if device.isBlocked {
                        "soft-blocked (RESET_REQUIRED), as it must be"
                    } else if device.cursor == nil {
                        "its last transfer did not close"
                    } else if (lastPull[number] ?? 0) <= lastWrite {
                        "its last pull came before the last write"
                    } else if offTrack.contains(number) {
                        "it pulled at a step whose answer was not compared with the reference's"
                    } else if closed[scenario.devices[number].user] == nil {
                        "its user's observer did not pull the settled world"
                    } else {
                        nil
                    }
                guard let step = lastPull[number], let observer = closed[scenario.devices[number].user], why == nil else {
                    if let why { unjudged.append("device \(number + 1): \(why)") }
                    continue
                }
                guard !acrossReap.contains(number) else {
                    unjudged.append("device \(number + 1): " + Self.bootstrapAcrossReap)
                    continue
                }
                judged += 1
                findings += converge(device, number: number, observer: observer, step: step)
            }
            if !closed.isEmpty { findings += ledger.lostWrites(observers: Array(closed.values)) }
            return ConvergenceVerdict(findings: findings, devices: judged, unjudged: unjudged)
        }

        func converge(_ device: Replica, number: Int, observer: Replica, step: Int) -> [ExploreFinding] {
            let keys = Set(device.rows.keys).union(observer.rows.keys).sorted()
            var lines: [String] = []
            for key in keys where device.rows[key] != observer.rows[key] {
                lines.append(
                    "\(key): device \(Self.show(device.rows[key])), observer \(Self.show(observer.rows[key]))")
            }
            guard !lines.isEmpty else { return [] }
            return [
                ExploreFinding(
                    rule: "EX-CONVERGE", step: step,
                    message:
                        "device \(number + 1) (\(device.client)) pulled to completion at cursor \(device.cursor ?? "?") but holds \(lines.count) row(s) other than its user's observer pulled from \"0\"",
                    detail: lines.joined(separator: "\n"))
            ]
        }

        static func show(_ held: Replica.Held?) -> String {
            guard let held else { return "nothing" }
            return "seq \(held.seq) " + CanonicalJSON.compact(.object(held.row))
        }

        /// The applied writes per row, in the order the target applied them.
        struct Ledger {
            enum LastWrite {
                case applied(Mutation, step: Int)
                /// Another actor, or a conflict mode the oracle does not model.
                case unjudged
            }

            /// What a `todos.likes` counter should read, or nil once something the oracle cannot
            /// add up touched it.
            enum Counter {
                case known(Int, step: Int)
                case unknown
            }

            let hlcTables: Set<String>
            var last: [RowKey: LastWrite] = [:]
            var likes: [RowKey: Counter] = [:]
            var counted: Set<String> = []
            /// Rows a held transaction wrote: its effect lands when it commits, out of step
            /// order, so nothing is judged of them.
            var heldKeys: Set<RowKey> = []

            mutating func changedByOther(_ key: RowKey, columns: JSONObject?) {
                last[key] = .unjudged
                if hlcTables.contains(key.table) {
                    likes[key] = .unknown
                } else if let columns, let value = columns["likes"] {
                    likes[key] = value.numberValue?.intValue.map { .known($0, step: 0) } ?? (value.isNull ? .known(0, step: 0) : .unknown)
                } else {
                    likes[key] = .unknown
                }
            }

            mutating func pushed(_ request: JSONValue, answer: JSONValue, step: Int) {
                guard let mutations = request["batch"]?["mutations"]?.arrayValue, let verdicts = answer["verdicts"]?.arrayValue,
                    verdicts.count == mutations.count
                else { return }
                for (json, verdict) in zip(mutations, verdicts) where verdict["verdict"]?.stringValue == "applied" {
                    guard let mutation = try? Mutation(json: json, at: .root, malformed: .json) else { continue }
                    let key = RowKey(table: mutation.table, pk: mutation.pk)
                    let first = counted.insert(mutation.mutationID).inserted
                    if hlcTables.contains(mutation.table) {
                        last[key] = .unjudged
                    } else if first {
                        // The masked columns are judged here; a transform's column by the counter.
                        last[key] = .applied(mutation, step: step)
                    }
                    guard mutation.table == "todos", first else { continue }
                    guard !hlcTables.contains(mutation.table) else {
                        likes[key] = .unknown
                        continue
                    }
                    count(mutation, key: key, step: step)
                }
            }

            mutating func count(_ mutation: Mutation, key: RowKey, step: Int) {
                switch mutation.op {
                case .delete:
                    likes[key] = .unknown
                case .insert, .update:
                    // The columns are the write's mask, an insert's too: a row it does not create
                    // keeps its counter; a row it creates without one starts at null (0).
                    if let value = mutation.columns["likes"] {
                        likes[key] =
                            value.numberValue?.intValue.map { .known($0, step: step) } ?? (value.isNull ? .known(0, step: step) : .unknown)
                    } else if likes[key] == nil {
                        likes[key] = .known(0, step: step)
                    }
                    for (column, transform) in mutation.transforms where column == "likes" {
                        guard case .known(let now, _) = likes[key] ?? .unknown, case .increment(let by) = transform,
                            let add = by.numberValue?.intValue
                        else {
                            likes[key] = .unknown
                            continue
                        }
                        likes[key] = .known(now + add, step: step)
                    }
                }
            }

            func lostWrites(observers: [Replica]) -> [ExploreFinding] {
                var findings: [ExploreFinding] = []
                func held(_ key: RowKey) -> Replica.Held? { observers.lazy.compactMap { $0.rows[key] }.first }
                for key in last.keys.sorted() where !heldKeys.contains(key) {
                    guard case .applied(let mutation, let step) = last[key] else { continue }
                    let observed = held(key)
                    if mutation.op == .delete {
                        if let observed {
                            findings.append(
                                ExploreFinding(
                                    rule: "EX-ACKED-WRITE", step: step,
                                    message:
                                        "\(key) was deleted by \(mutation.mutationID), applied at step \(step) and written over by nothing after, yet an observer still pulls it",
                                    detail: "observer: seq \(observed.seq) " + CanonicalJSON.compact(.object(observed.row))))
                        }
                        continue
                    }
                    guard let observed else { continue }
                    let lost = mutation.columns.members.filter { observed.row[$0.key] != $0.value }
                    guard !lost.isEmpty else { continue }
                    findings.append(
                        ExploreFinding(
                            rule: "EX-ACKED-WRITE", step: step,
                            message:
                                "\(key): \(mutation.mutationID) was applied at step \(step) and written over by nothing after, yet the row lacks "
                                + lost.map(\.key).joined(separator: ", "),
                            detail: "applied: " + CanonicalJSON.compact(.object(mutation.columns)) + "\nobserved: seq \(observed.seq) "
                                + CanonicalJSON.compact(.object(observed.row))))
                }
                for key in likes.keys.sorted() where !heldKeys.contains(key) {
                    guard case .known(let expected, let step) = likes[key], let observed = held(key),
                        let value = observed.row["likes"]
                    else { continue }
                    let actual = value.isNull ? 0 : value.numberValue?.intValue
                    guard actual != expected else { continue }
                    findings.append(
                        ExploreFinding(
                            rule: "EX-EXACTLY-ONCE", step: step,
                            message:
                                "\(key): likes should be \(expected) after each applied write and increment counted once, but the row says \(CanonicalJSON.compact(value))",
                            detail: "observed: seq \(observed.seq) " + CanonicalJSON.compact(.object(observed.row))))
                }
                return findings
            }
        }
    }
}
