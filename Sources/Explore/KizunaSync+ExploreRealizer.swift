import Corpus
import JSON
import KizunaWire
import ServerContract

extension KizunaSync {
    /// A scenario realized against the reference: a transcript in the corpus format (its golden
    /// answers the reference's), the setup it needs, and which action and whose call each step is.
    package struct ExploreTranscript: Sendable {
        /// Whose call an rpc or drop-ack step is.
        package enum Caller: Sendable, Hashable {
            case device(Int)
            case observer(user: Int)
        }

        package var caseID: String
        /// The transcript document.
        package var json: JSONValue
        /// The transactions held open, for the case's `Scenarios` setup.
        package var held: [Scenarios.HeldStep]
        /// The action each step came from, by step number.
        package var actionOfStep: [Int: Int]
        /// The caller of each rpc and drop-ack step, by step number.
        package var callers: [Int: Caller]
        package var stepCount: Int
        /// Why a driven client's transcript has no closing assert of the rows it converged on
        /// (it is soft-blocked, a bootstrap paged across a reap, the reference client itself did
        /// not converge); nil when it has one, and for a scenario no client drives.
        package var unasserted: String?
        /// Why a driven client's transcript cannot be played as the client played it, when it
        /// cannot: the corpus format says a write's atomic group only by the atomic push that first
        /// carries it, so a group never pushed cannot be told apart from plain writes.
        package var unplayable: String?

        /// The reference's answer to each rpc step, by step number.
        package var goldenAnswers: [Int: RPCReply] {
            var answers: [Int: RPCReply] = [:]
            for step in json["steps"]?.arrayValue ?? [] where step["kind"]?.stringValue == "rpc" {
                guard let n = step["n"]?.numberValue?.intValue, let response = step["response"] else { continue }
                answers[n] = RPCReply(status: step["status"]?.numberValue?.intValue ?? 200, body: response)
            }
            return answers
        }

        /// The setup `accord run` needs to replay it (`--scenarios`): the held transactions.
        package var setup: Scenarios.Scenario { Scenarios.Scenario(nextSeq: nil, history: [], held: held) }
    }

    /// Plays a scenario's actions against a reference server, step by step as the server lane
    /// will (the same seed, the same step numbers before each server-checked step, the same held
    /// transactions committed after the same steps), and writes down what it answered.
    package enum ExploreRealizer {
        package static let cite = "accord:explore"

        /// Realizes a scenario; with `client`, device 0's writes, pushes and pulls are that client's
        /// (the golden requests are what it sends), and a closing assert says what it must hold.
        package static func realize(
            _ scenario: ExploreScenario, caseID: String, on reference: any KizunaSync.ServerTarget, client: (any ExploreClient)? = nil
        ) async throws(TargetError) -> ExploreTranscript {
            var run = Run(scenario: scenario, reference: reference, client: client)
            _ = try await reference.seed(Seed(server: scenario.server))
            for (index, action) in scenario.actions.enumerated() {
                // Every transaction commits before the closing phase, which judges a settled world.
                switch action {
                case .settlePush, .settlePull, .observe: try await run.commitAll()
                default: break
                }
                try await run.play(action, index: index)
                try await run.commit(due: index)
            }
            try await run.commitAll()
            if let client { try await run.assertConverged(client) }
            let document: JSONObject = [
                "case": .string(caseID),
                "title": .string("explore: scenario \(scenario.index) of seed \(scenario.seed)"),
                "cites": [.string(cite)], "status": "proposed", "priority": "P1",
                // A transaction held open leaves a hole in the cursor, which the reference fences
                // by visibility horizon: a hole is re-delivered when its transaction commits.
                "fencing": run.held.isEmpty ? "shared" : "visibility-horizon",
                "context": .object(context(of: scenario)), "steps": .array(run.steps), "postconditions": [],
            ]
            // The server lane commits the transactions due after one step in the order they are
            // listed, so they are listed in the order they committed here.
            let held = run.held.sorted { $0.committed < $1.committed }.map(\.step)
            return ExploreTranscript(
                caseID: caseID, json: .object(document), held: held, actionOfStep: run.actionOfStep,
                callers: run.callers, stepCount: run.steps.count, unasserted: client == nil ? nil : run.unasserted,
                unplayable: run.unpushedGroup.map { "the atomic group of \($0) is never pushed" })
        }

        /// The transcript's `context`: device 0's client, user and schema version, the server.
        package static func context(of scenario: ExploreScenario) -> JSONObject {
            [
                "client_id": .string(scenario.devices.first?.client ?? ExploreIDs.device(0)),
                "user_id": .string(scenario.users.first ?? ExploreIDs.user(0)),
                "schema_version": .number(JSONNumber(scenario.devices.first?.schemaVersion ?? scenario.server.minSchemaVersion)),
                "notes": .array(notes(scenario).map { .string($0) }),
                "server": ServerInference.json(scenario.server),
            ]
        }

        static func notes(_ scenario: ExploreScenario) -> [String] {
            var notes = [
                "generated by accord explore --seed \(scenario.seed) (scenario \(scenario.index)); golden answers are Accord's reference server's"
            ]
            for (number, device) in scenario.devices.enumerated() {
                notes.append(
                    "device \(number + 1): client \(device.client), user \(scenario.users[device.user]), schema_version \(device.schemaVersion)"
                        + (number == 0 ? " (the transcript's own client)" : ""))
            }
            if let driven = scenario.driven {
                notes.append(
                    "device 1 is a client played through its driver: golden requests are Accord's reference client's; page size \(driven.pullLimit.map(String.init) ?? "the server's default"); \(driven.fault)"
                )
            }
            notes.append("server changes are by \(ExploreIDs.actor); each user's observer (c2…) pulls its buckets from \"0\" at the end")
            return notes
        }

        struct HeldChange {
            var step: Scenarios.HeldStep
            var key: RowKey
            var commitAt: Int
            /// Its place among the commits.
            var committed = Int.max
        }

        struct Run {
            let scenario: ExploreScenario
            let reference: any KizunaSync.ServerTarget
            var replicas: [Replica]
            var observers: [Int: Replica] = [:]
            var steps: [JSONValue] = []
            var held: [HeldChange] = []
            var open: [HeldChange] = []
            var actionOfStep: [Int: Int] = [:]
            var callers: [Int: ExploreTranscript.Caller] = [:]
            var action = 0
            var commits = 0
            /// The client playing device 0, when one does.
            let client: (any ExploreClient)?
            /// The rows device 0's client wrote: a held change on one commits before it pushes.
            var clientKeys: Set<RowKey> = []
            var atomicGroups = 0
            /// The atomic group of each grouped write the client stored, and every mutation it pushed.
            var groupOf: [String: String] = [:]
            var pushedIDs: Set<String> = []
            /// Grouped writes left out of a push sent after them.
            var exposed: Set<String> = []
            /// Why the closing assert is left out, once known.
            var unasserted: String?

            init(scenario: ExploreScenario, reference: any KizunaSync.ServerTarget, client: (any ExploreClient)? = nil) {
                self.scenario = scenario
                self.reference = reference
                self.client = client
                self.replicas = scenario.devices.map {
                    Replica(
                        client: $0.client, user: scenario.users[$0.user], schemaVersion: $0.schemaVersion, tables: scenario.tables)
                }
            }

            var next: Int { steps.count + 1 }

            mutating func append(_ step: JSONObject) {
                var step = step
                step["n"] = .number(JSONNumber(next))
                actionOfStep[next] = action
                steps.append(.object(step))
            }

            func identity(_ replica: Replica) -> Identity { Identity(user: replica.user, session: replica.client) }

            mutating func play(_ action: ExploreAction, index: Int) async throws(TargetError) {
                self.action = index
                if let client, action.device == 0 {
                    try await play(action, through: client)
                    return
                }
                switch action {
                case .write(let device, let mutation):
                    replicas[device].write(mutation)
                    if device == 0 { append(Self.localStep(mutation)) }
                case .push(let device, let count, let atomic, let lost):
                    guard let body = replicas[device].pushRequest(count: count, atomic: atomic) else { return }
                    try await push(body, device: device, lost: lost && device == 0)
                case .pull(let device, let limit):
                    guard let body = replicas[device].pullRequest(limit: limit) else { return }
                    let reply = try await call(.pull, body, caller: .device(device))
                    replicas[device].pulled(status: reply.status, body: reply.body)
                case .server(let change, let heldFor):
                    try await commit(touching: [RowKey(table: change.table, pk: change.pk)])
                    try await reference.setStep(next)
                    let transaction: String?
                    if case .upsert = change, heldFor > 0 { transaction = "t\(held.count + 1)" } else { transaction = nil }
                    do {
                        try await reference.apply(Self.fixture(change), heldIn: transaction)
                    } catch  where !error.isUnreachable {
                        // Another actor deletes a row only while it is live: a delete the
                        // reference refuses (no live row) is left out of the scenario.
                        if case .delete = change { return }
                        throw error
                    }
                    if let transaction {
                        let change = HeldChange(
                            step: Scenarios.HeldStep(step: next, transaction: transaction, commitAfterStep: next),
                            key: RowKey(table: change.table, pk: change.pk), commitAt: index + heldFor)
                        held.append(change)
                        open.append(change)
                    }
                    append(Self.serverStep(change))
                case .atomicWrites(let device, let mutations):
                    for mutation in mutations { try await play(.write(device: device, mutation), index: index) }
                case .brokenAnswer, .failedPull:
                    // Faults of a driven client's connection: a device the model plays has none.
                    return
                case .reap:
                    if client != nil, case .transferring(_, _, replacing: true) = replicas[0].sync {
                        unasserted =
                            unasserted ?? "device 1's bootstrap from \"0\" is paged across a reap (a deleted row may stay; lifecycle/901)"
                    }
                    try await reference.setStep(next)
                    try await reference.apply(.reap, heldIn: nil)
                    append(["kind": "server", "op": "reap"])
                case .settlePush(let device):
                    for _ in 0...replicas[device].outbox.count + 1 {
                        guard let body = replicas[device].pushRequest(count: 500, atomic: false) else { return }
                        try await push(body, device: device, lost: false)
                    }
                case .settlePull(let device, let limit):
                    var replica = replicas[device]
                    try await pullToCompletion(&replica, limit: limit, caller: .device(device))
                    replicas[device] = replica
                case .observe(let user, let limit):
                    var observer = Replica(
                        client: scenario.observer(of: user), user: scenario.users[user],
                        schemaVersion: scenario.server.minSchemaVersion, tables: scenario.tables)
                    try await pullToCompletion(&observer, limit: limit, caller: .observer(user: user))
                    observers[user] = observer
                }
            }

            mutating func pullToCompletion(_ replica: inout Replica, limit: Int?, caller: ExploreTranscript.Caller)
                async throws(TargetError)
            {
                // A transfer closes within the rows the scenario can write; the bound only stops a
                // reference that never closes from looping.
                for _ in 0..<500 {
                    guard let body = replica.pullRequest(limit: limit) else { return }
                    let reply = try await call(.pull, body, caller: caller)
                    replica.pulled(status: reply.status, body: reply.body)
                    if reply.status != 200 || replica.cursor != nil { return }
                }
            }

            mutating func push(_ body: JSONValue, device: Int, lost: Bool) async throws(TargetError) {
                try await commit(touching: Set((body["batch"]?["mutations"]?.arrayValue ?? []).compactMap(RowKey.init)))
                if lost {
                    try await reference.setStep(next)
                    let reply = try await reference.push(body, as: identity(replicas[device]))
                    callers[next] = .device(device)
                    guard reply.status == 200 else {
                        // A batch the server refuses has no answer to lose: it is an rpc step.
                        append([
                            "kind": "rpc", "rpc": "push", "request": body, "response": reply.body,
                            "status": .number(JSONNumber(reply.status)),
                        ])
                        replicas[device].pushed(status: reply.status, body: reply.body, lost: false)
                        return
                    }
                    append(["kind": "fault", "fault": "drop-ack", "target": "push", "request": body])
                    replicas[device].pushed(status: reply.status, body: reply.body, lost: true)
                } else {
                    let reply = try await call(.push, body, caller: .device(device))
                    replicas[device].pushed(status: reply.status, body: reply.body, lost: false)
                }
            }

            mutating func call(_ rpc: RPCKind, _ body: JSONValue, caller: ExploreTranscript.Caller) async throws(TargetError) -> RPCReply {
                let identity =
                    switch caller {
                    case .device(let device): identity(replicas[device])
                    case .observer(let user): Identity(user: scenario.users[user], session: scenario.observer(of: user))
                    }
                try await reference.setStep(next)
                let reply =
                    switch rpc {
                    case .pull: try await reference.pull(body, as: identity)
                    case .push: try await reference.push(body, as: identity)
                    }
                var step: JSONObject = ["kind": "rpc", "rpc": .string(rpc.rawValue), "request": body, "response": reply.body]
                if reply.status != 200 { step["status"] = .number(JSONNumber(reply.status)) }
                if caller != .device(0) { step["caller"] = ["client": .string(identity.session ?? ""), "user": .string(identity.user)] }
                callers[next] = caller
                append(step)
                return reply
            }

            /// Commits the transactions due after action `index`, after the last step so far.
            mutating func commit(due index: Int) async throws(TargetError) {
                for change in open where change.commitAt <= index { try await commit(change) }
            }

            /// Commits, first, the transactions holding a row about to be written: a real database
            /// would make that write wait on the row's lock, which a played scenario cannot.
            mutating func commit(touching keys: Set<RowKey>) async throws(TargetError) {
                for change in open where keys.contains(change.key) { try await commit(change) }
            }

            mutating func commitAll() async throws(TargetError) {
                for change in open { try await commit(change) }
            }

            private mutating func commit(_ change: HeldChange) async throws(TargetError) {
                try await reference.commit(transaction: change.step.transaction)
                open.removeAll { $0.step.transaction == change.step.transaction }
                if let at = held.firstIndex(where: { $0.step.transaction == change.step.transaction }) {
                    held[at].step.commitAfterStep = steps.count
                    held[at].committed = commits
                }
                commits += 1
            }

            static func fixture(_ change: ExploreChange) -> FixtureChange {
                switch change {
                case .upsert(let table, let pk, let columns, let hlc):
                    .upsert(table: table, pk: pk, columns: columns, actor: ExploreIDs.actor, hlc: hlc)
                case .delete(let table, let pk): .delete(table: table, pk: pk, actor: ExploreIDs.actor)
                }
            }

            static func serverStep(_ change: ExploreChange) -> JSONObject {
                switch change {
                case .upsert(let table, let pk, let columns, let hlc):
                    var step: JSONObject = [
                        "kind": "server", "op": "upsert", "actor": .string(ExploreIDs.actor), "table": .string(table), "pk": .string(pk),
                        "columns": .object(columns),
                    ]
                    if let hlc { step["hlc"] = .string(hlc) }
                    return step
                case .delete(let table, let pk):
                    return [
                        "kind": "server", "op": "delete", "actor": .string(ExploreIDs.actor), "table": .string(table), "pk": .string(pk),
                    ]
                }
            }

            static func localStep(_ mutation: Mutation) -> JSONObject {
                var step: JSONObject = [
                    "kind": "local", "mutation_id": .string(mutation.mutationID), "op": .string(mutation.op.rawValue),
                    "table": .string(mutation.table), "pk": .string(mutation.pk), "columns": .object(mutation.columns),
                ]
                if let precondition = mutation.precondition { step["precondition"] = .object(precondition) }
                if !mutation.transforms.isEmpty {
                    step["transforms"] = .object(
                        JSONObject(mutation.transforms.map { JSONObject.Member(key: $0.column, value: $0.transform.json) }))
                }
                return step
            }
        }
    }
}
