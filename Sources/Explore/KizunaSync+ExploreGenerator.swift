import Corpus
import JSON
import KizunaWire

extension KizunaSync {
    /// Makes KizunaSync scenarios from a seed over Accord's corpus domain (`todos`, `checklist`):
    /// a few users and devices and another actor; local writes (inserts, updates, deletes, writes
    /// into another user's bucket, preconditions, transforms where the table has integer and array
    /// columns, hlc clocks where the table resolves by hlc), pushes (random batches, atomic or not,
    /// answers lost and resent), pulls (random limits, transfers left open), server changes (some
    /// held in an open transaction), reaps, and a stale schema for some devices. Every scenario ends
    /// with the closing phase the convergence oracle judges: every device pushes what it holds, then
    /// pulls to completion, then an observer per user pulls from "0".
    package enum ExploreGenerator {
        /// The words titles and labels are drawn from: few, so preconditions sometimes match.
        static let words = ["alpha", "beta", "gamma"]

        package static func scenario(index: Int, seed: UInt64) -> ExploreScenario {
            var rng = SplitMix64(seed: SplitMix64.seed(of: index, in: seed))
            let userCount = Int.random(in: 1...3, using: &rng)
            let users = (0..<userCount).map(ExploreIDs.user)
            let stale = rng.chance(12)
            let minSchema = stale ? 2 : 1
            let deviceCount = Int.random(in: 1...3, using: &rng)
            let devices = (0..<deviceCount).map { number in
                ExploreScenario.Device(
                    client: ExploreIDs.device(number), user: number == 0 ? 0 : Int.random(in: 0..<userCount, using: &rng),
                    schemaVersion: stale && rng.chance(40) ? 1 : minSchema)
            }
            let world = domain(users: users, devices: devices, hlcPercent: 30, minSchema: minSchema, using: &rng)
            let (tables, server) = (world.tables, world.server)
            var state = world.state
            let length = Int.random(in: 4...18, using: &rng)
            var actions: [ExploreAction] = []
            for _ in 0..<length { actions.append(state.next(using: &rng)) }
            let limit: Int? = rng.chance(50) ? Int.random(in: 1...3, using: &rng) : nil
            for device in devices.indices { actions.append(.settlePush(device: device)) }
            for device in devices.indices { actions.append(.settlePull(device: device, limit: limit)) }
            for user in Set(devices.map(\.user)).sorted() { actions.append(.observe(user: user, limit: limit)) }
            return ExploreScenario(
                seed: seed, index: index, users: users, devices: devices, server: server, tables: tables, actions: actions)
        }

        /// A scenario whose device 0 is a client played through its driver (`accord explore
        /// --client`): its writes (some in atomic groups), pushes (answers lost, or broken so the
        /// client must refuse them) and pulls (some failing), one page at a time at the page size
        /// it was opened with; another device and actor change the server meanwhile, reaps run,
        /// and the client may be stale. Its driver is played under one of `faults` (a kill point or
        /// a storage fault) in about half the scenarios. The closing phase is the server scenario's.
        package static func clientScenario(index: Int, seed: UInt64, faults: ExploreClientFaults) -> ExploreScenario {
            var rng = SplitMix64(seed: SplitMix64.seed(of: index, in: seed) ^ 0x636C_6965_6E74)
            let userCount = Int.random(in: 1...2, using: &rng)
            let users = (0..<userCount).map(ExploreIDs.user)
            let stale = rng.chance(8)
            let minSchema = stale ? 2 : 1
            let deviceCount = Int.random(in: 1...2, using: &rng)
            let devices = (0..<deviceCount).map { number in
                ExploreScenario.Device(
                    client: ExploreIDs.device(number), user: number == 0 ? 0 : Int.random(in: 0..<userCount, using: &rng),
                    schemaVersion: stale && number == 0 ? 1 : minSchema)
            }
            let world = domain(users: users, devices: devices, hlcPercent: 20, minSchema: minSchema, using: &rng)
            let (tables, server) = (world.tables, world.server)
            var state = world.state
            let pullLimit: Int? = rng.chance(60) ? Int.random(in: 1...3, using: &rng) : nil
            // The fault has a stream of its own: the actions never depend on which faults a driver can take.
            var faultStream = SplitMix64(seed: SplitMix64.seed(of: index, in: seed) ^ 0x6661_756C_74)
            let fault = faults.isEmpty || faultStream.chance(50) ? ExploreClientFault.none : faults.pick(using: &faultStream)
            // Data from before: rows of the client's user already on the server, so its first pull
            // has rows to page through and commit.
            var actions: [ExploreAction] = []
            for _ in 0..<Int.random(in: 0...4, using: &rng) {
                let table = rng.pick(tables)
                let columns = state.insertColumns(table, owner: users[0], using: &rng)
                let clock = state.hlc.contains(table) ? state.nextHLC(node: "server") : nil
                actions.append(
                    .server(.upsert(table: table, pk: state.pk(in: table, using: &rng), columns: columns, hlc: clock), heldFor: 0))
            }
            for _ in 0..<Int.random(in: 3...14, using: &rng) { actions.append(state.nextOfClient(using: &rng)) }
            for device in devices.indices { actions.append(.settlePush(device: device)) }
            for device in devices.indices { actions.append(.settlePull(device: device, limit: device == 0 ? pullLimit : nil)) }
            for user in Set(devices.map(\.user)).sorted() { actions.append(.observe(user: user, limit: nil)) }
            return ExploreScenario(
                seed: seed, index: index, users: users, devices: devices, server: server, tables: tables, actions: actions,
                driven: ExploreScenario.Driven(pullLimit: pullLimit, fault: fault))
        }

        /// The tables a scenario syncs (`todos`, `checklist` or both, each by `owner_id`; `todos`
        /// resolved by hlc in `hlcPercent` of scenarios), its server, and the generator's state.
        static func domain(
            users: [String], devices: [ExploreScenario.Device], hlcPercent: Int, minSchema: Int, using rng: inout SplitMix64
        ) -> (tables: [String], server: ServerConfig, state: State) {
            var tables = ["todos", "checklist"].filter { _ in rng.chance(60) }
            if tables.isEmpty { tables = [rng.pick(["todos", "checklist"])] }
            let configs = tables.map { table in
                TableConfig(table: table, bucketColumn: "owner_id", conflictMode: table == "todos" && rng.chance(hlcPercent) ? "hlc" : nil)
            }
            let state = State(
                users: users, devices: devices, tables: tables, hlc: Set(configs.filter { $0.conflictMode == "hlc" }.map(\.name)),
                rows: Dictionary(uniqueKeysWithValues: tables.map { ($0, Int.random(in: 2...4, using: &rng)) }))
            return (tables, ServerConfig(synced: configs, minSchemaVersion: minSchema), state)
        }

        /// What the generator needs to pick the next action.
        struct State {
            let users: [String]
            let devices: [ExploreScenario.Device]
            let tables: [String]
            let hlc: Set<String>
            /// How many row keys each table's pool has.
            let rows: [String: Int]
            var mutations = 0
            var clock = 0

            mutating func next(using rng: inout SplitMix64) -> ExploreAction {
                let device = Int.random(in: 0..<devices.count, using: &rng)
                switch Int.random(in: 0..<100, using: &rng) {
                case 0..<36: return .write(device: device, write(by: device, using: &rng))
                case 36..<54:
                    return .push(
                        device: device, count: Int.random(in: 1...3, using: &rng), atomic: rng.chance(30),
                        answerLost: device == 0 && rng.chance(25))
                case 54..<74:
                    return .pull(device: device, limit: rng.chance(60) ? Int.random(in: 1...3, using: &rng) : nil)
                case 74..<90:
                    // Only an upsert is held open: a held delete's row may be gone by its commit.
                    let change = change(using: &rng)
                    let held = rng.chance(20) ? Int.random(in: 1...4, using: &rng) : 0
                    if case .delete = change { return .server(change, heldFor: 0) }
                    return .server(change, heldFor: held)
                default:
                    return .reap
                }
            }

            /// The next action of a scenario whose device 0 is a driven client: mostly its own.
            mutating func nextOfClient(using rng: inout SplitMix64) -> ExploreAction {
                let other = devices.count > 1 && rng.chance(25)
                guard !other else {
                    // The other device writes and pushes: the server changes under the client.
                    if rng.chance(55) { return .write(device: 1, write(by: 1, using: &rng)) }
                    return .push(device: 1, count: Int.random(in: 1...3, using: &rng), atomic: rng.chance(20), answerLost: false)
                }
                switch Int.random(in: 0..<100, using: &rng) {
                case 0..<30: return .write(device: 0, write(by: 0, using: &rng))
                case 30..<36:
                    let run = (0..<Int.random(in: 2...3, using: &rng)).map { _ in write(by: 0, using: &rng) }
                    return .atomicWrites(device: 0, run)
                case 36..<54: return .push(device: 0, count: 1, atomic: false, answerLost: rng.chance(25))
                case 54..<58: return .brokenAnswer(device: 0)
                case 58..<76: return .pull(device: 0, limit: nil)
                case 76..<80: return .failedPull(device: 0)
                case 80..<94:
                    let change = change(using: &rng)
                    let held = rng.chance(15) ? Int.random(in: 1...3, using: &rng) : 0
                    if case .delete = change { return .server(change, heldFor: 0) }
                    return .server(change, heldFor: held)
                default: return .reap
                }
            }

            mutating func change(using rng: inout SplitMix64) -> ExploreChange {
                let table = rng.pick(tables)
                let pk = pk(in: table, using: &rng)
                if rng.chance(25) { return .delete(table: table, pk: pk) }
                var columns = insertColumns(table, owner: rng.pick(users), using: &rng)
                if table == "checklist" { columns["version"] = .number(JSONNumber(Int.random(in: 1...3, using: &rng))) }
                return .upsert(table: table, pk: pk, columns: columns, hlc: hlc.contains(table) ? nextHLC(node: "server") : nil)
            }

            mutating func write(by device: Int, using rng: inout SplitMix64) -> Mutation {
                let table = rng.pick(tables)
                let pk = pk(in: table, using: &rng)
                let own = users[devices[device].user]
                let id = ExploreIDs.mutation(mutations)
                mutations += 1
                // A client stamps every write to a table resolved by hlc (a server refuses one without).
                let clock = hlc.contains(table) ? nextHLC(node: "d\(device + 1)") : nil
                switch Int.random(in: 0..<100, using: &rng) {
                case 0..<40:
                    let owner = rng.chance(88) ? own : rng.pick(users)
                    var columns = insertColumns(table, owner: owner, using: &rng)
                    if table == "checklist" && rng.chance(10) { columns["title"] = .null }
                    if table == "checklist" && rng.chance(8) { columns["version"] = 1 }
                    return Mutation(mutationID: id, table: table, pk: pk, op: .insert, columns: columns, hlc: clock)
                case 40..<85:
                    var columns = JSONObject()
                    var transforms: [(column: String, transform: Transform)] = []
                    if rng.chance(60) { columns["title"] = .string(rng.pick(words)) }
                    if rng.chance(40) { columns["done"] = .bool(rng.chance(50)) }
                    if rng.chance(10) { columns["owner_id"] = .string(rng.pick(users)) }
                    if table == "checklist" && rng.chance(8) { columns["title"] = .null }
                    if table == "checklist" && rng.chance(8) { columns["version"] = 2 }
                    if table == "todos" && rng.chance(35) {
                        transforms.append(("likes", .increment(by: .number(JSONNumber(Int.random(in: 1...3, using: &rng))))))
                    }
                    if table == "todos" && rng.chance(20) {
                        let values: [JSONValue] = [.string(rng.pick(words))]
                        transforms.append(("labels", rng.chance(60) ? .arrayUnion(values) : .arrayRemove(values)))
                    }
                    if columns.count == 0 && transforms.isEmpty { columns["done"] = .bool(rng.chance(50)) }
                    let precondition: JSONObject? = rng.chance(20) ? ["title": .string(rng.pick(words))] : nil
                    return Mutation(
                        mutationID: id, table: table, pk: pk, op: .update, columns: columns, precondition: precondition,
                        transforms: transforms, hlc: clock)
                default:
                    return Mutation(mutationID: id, table: table, pk: pk, op: .delete, columns: JSONObject(), hlc: clock)
                }
            }

            func insertColumns(_ table: String, owner: String, using rng: inout SplitMix64) -> JSONObject {
                var columns: JSONObject = [
                    "owner_id": .string(owner), "title": .string(rng.pick(words)), "done": .bool(rng.chance(50)),
                ]
                if table == "todos" {
                    if rng.chance(50) { columns["likes"] = .number(JSONNumber(Int.random(in: 0...3, using: &rng))) }
                    if rng.chance(30) { columns["labels"] = .array([.string(rng.pick(words))]) }
                }
                return columns
            }

            func pk(in table: String, using rng: inout SplitMix64) -> String {
                ExploreIDs.row(table: tables.firstIndex(of: table) ?? 0, Int.random(in: 0..<(rows[table] ?? 1), using: &rng))
            }

            /// A later origin clock each time, before the logical day the reference's clock starts:
            /// no server clamps it, whether it runs on steps (the reference) or the wall (a real
            /// database), so which write wins depends on the clocks alone.
            mutating func nextHLC(node: String) -> String {
                clock += 1
                let seconds = clock % 60
                let minutes = clock / 60 % 60
                func two(_ value: Int) -> String { value < 10 ? "0\(value)" : String(value) }
                return "2025-12-31T23:\(two(minutes)):\(two(seconds)).000Z|0|\(node)"
            }
        }
    }
}
