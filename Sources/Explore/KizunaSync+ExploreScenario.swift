import Corpus
import JSON
import KizunaWire

extension KizunaSync {
    /// A generated scenario: who takes part, how the server is configured, and what happens, as
    /// actions rather than wire bytes. Realizing it against the reference (`ExploreRealizer`)
    /// turns it into a transcript; shrinking edits the actions and realizes again, so a shrunk
    /// scenario's cursors, seqs and golden answers are always the reference's own.
    package struct ExploreScenario: Sendable, Hashable {
        /// A device: a client id signed in as one of the scenario's users.
        package struct Device: Sendable, Hashable {
            package var client: String
            /// An index into `users`.
            package var user: Int
            /// The schema version its requests carry; below the server minimum it is soft-blocked.
            package var schemaVersion: Int

            package init(client: String, user: Int, schemaVersion: Int) {
                self.client = client
                self.user = user
                self.schemaVersion = schemaVersion
            }
        }

        /// Where the scenario came from: `--seed` and its number in the run.
        package var seed: UInt64
        package var index: Int
        package var users: [String]
        /// Device 0 is the transcript's own client and user; the others call as a `caller`.
        package var devices: [Device]
        package var server: ServerConfig
        /// The tables every device pulls, each scoped to the device's user.
        package var tables: [String]
        package var actions: [ExploreAction]
        /// Set when device 0 is a client played through its driver (`accord explore --client`):
        /// its requests are the client's own, not the model's.
        package var driven: Driven?

        package init(
            seed: UInt64, index: Int, users: [String], devices: [Device], server: ServerConfig, tables: [String],
            actions: [ExploreAction], driven: Driven? = nil
        ) {
            self.seed = seed
            self.index = index
            self.users = users
            self.devices = devices
            self.server = server
            self.tables = tables
            self.actions = actions
            self.driven = driven
        }

        /// How a driven device 0 is set up, and the fault its driver is played under.
        package struct Driven: Sendable, Hashable {
            /// The page size the client is opened with (nil: the server's default).
            package var pullLimit: Int?
            package var fault: ExploreClientFault

            package init(pullLimit: Int?, fault: ExploreClientFault) {
                self.pullLimit = pullLimit
                self.fault = fault
            }
        }

        /// The observer of user `user`: a client that pulls the user's buckets from "0" at the end.
        package func observer(of user: Int) -> String { ExploreIDs.uuid("c2", user + 1) }
    }

    /// One thing that happens in a generated scenario.
    package enum ExploreAction: Sendable, Hashable {
        /// A device writes locally; the mutation joins its outbox.
        case write(device: Int, Mutation)
        /// A device pushes the head of its outbox (`count` entries, as one atomic batch or not),
        /// or resends the batch still in flight; `answerLost`: the request applies and its answer
        /// is lost (a drop-ack), so the batch stays in flight.
        case push(device: Int, count: Int, atomic: Bool, answerLost: Bool)
        /// A device pulls one page from where it is (a transfer continues; nil limit: the default).
        case pull(device: Int, limit: Int?)
        /// Another actor writes on the server; `heldFor` > 0 keeps it in an open transaction for
        /// that many more actions.
        case server(ExploreChange, heldFor: Int)
        /// The tombstone reaper runs.
        case reap
        /// The closing phase: a device resends and pushes everything it holds.
        case settlePush(device: Int)
        /// The closing phase: a device pulls until its transfer closes.
        case settlePull(device: Int, limit: Int?)
        /// The closing phase: a new client of the user pulls the user's buckets from "0".
        case observe(user: Int, limit: Int?)
        /// A driven client writes a run of mutations as one atomic group (pushed as one atomic batch).
        case atomicWrites(device: Int, [Mutation])
        /// A driven client pushes; the server applies the batch, and its answer reaches the client
        /// with a verdict for a mutation never sent, which the client must refuse (VERDICT_BIJECTION).
        case brokenAnswer(device: Int)
        /// A driven client pulls and the connection fails before the server sees the request.
        case failedPull(device: Int)

        /// The device the action is of, if any.
        package var device: Int? {
            switch self {
            case .write(let device, _), .push(let device, _, _, _), .pull(let device, _), .settlePush(let device),
                .settlePull(let device, _), .atomicWrites(let device, _), .brokenAnswer(let device), .failedPull(let device):
                device
            case .server, .reap, .observe: nil
            }
        }
    }

    /// The fault a driven client's driver is played under: none, killed at a kill-matrix point,
    /// or its storage failing at a storage-fault point (names as `accord run --kill-matrix` and
    /// `--storage-faults` give them: `after-local-write`, `staged-page eio restart`, …). Where the
    /// matrices take a point's first instant in a case, a scenario takes its `instant`-th (counted
    /// round the instants the transcript has), so a later write, page or commit is faulted too.
    package enum ExploreClientFault: Sendable, Hashable, CustomStringConvertible {
        case none
        case kill(point: String, instant: Int)
        case storage(point: String, errno: String, continuation: String, instant: Int)

        /// Which of its point's instants it is at.
        package var instant: Int {
            switch self {
            case .none: 0
            case .kill(_, let instant), .storage(_, _, _, let instant): instant
            }
        }

        /// The same fault at its point's first instant.
        package var atFirstInstant: Self {
            switch self {
            case .none: .none
            case .kill(let point, _): .kill(point: point, instant: 0)
            case .storage(let point, let errno, let continuation, _):
                .storage(point: point, errno: errno, continuation: continuation, instant: 0)
            }
        }

        package var description: String {
            switch self {
            case .none: "no fault"
            case .kill(let point, let instant): "killed @ \(point) (instant \(instant + 1))"
            case .storage(let point, let errno, let continuation, let instant):
                "storage fault @ \(point) \(errno) \(continuation) (instant \(instant + 1))"
            }
        }
    }

    /// The faults a driven client's scenarios may play its driver under, by kind: a scenario
    /// with a fault picks a kind, then a point, then a variant, so neither kind crowds out the other.
    package struct ExploreClientFaults: Sendable, Hashable {
        /// A storage fault's errno and continuation, as the storage-fault matrix names them (`eio`, `restart`).
        package struct StorageVariant: Sendable, Hashable {
            package var errno: String
            package var continuation: String

            package init(errno: String, continuation: String) {
                self.errno = errno
                self.continuation = continuation
            }
        }

        /// Kill points (`after-local-write`, …).
        package var kills: [String]
        /// Kill points a driver dies at by its own hook, at the first instant it reaches: played
        /// at their first instant only.
        package var firstInstantOnly: Set<String>
        /// Storage-fault points (`local-write`, …).
        package var storagePoints: [String]
        package var storageVariants: [StorageVariant]

        package init(
            kills: [String] = [], firstInstantOnly: Set<String> = [], storagePoints: [String] = [], storageVariants: [StorageVariant] = []
        ) {
            self.kills = kills
            self.firstInstantOnly = firstInstantOnly
            self.storagePoints = storagePoints
            self.storageVariants = storageVariants
        }

        /// Whether no fault can be played.
        package var isEmpty: Bool { kills.isEmpty && (storagePoints.isEmpty || storageVariants.isEmpty) }

        /// One fault, drawn by kind, point, variant and instant.
        func pick(using rng: inout SplitMix64) -> ExploreClientFault {
            let storage = !storagePoints.isEmpty && !storageVariants.isEmpty
            let instant = Int.random(in: 0..<3, using: &rng)
            if !kills.isEmpty && (!storage || rng.chance(50)) {
                let point = rng.pick(kills)
                return .kill(point: point, instant: firstInstantOnly.contains(point) ? 0 : instant)
            }
            guard storage else { return .none }
            let point = rng.pick(storagePoints)
            let variant = rng.pick(storageVariants)
            return .storage(point: point, errno: variant.errno, continuation: variant.continuation, instant: instant)
        }
    }

    /// Another actor's write on the server.
    package enum ExploreChange: Sendable, Hashable {
        case upsert(table: String, pk: String, columns: JSONObject, hlc: String?)
        case delete(table: String, pk: String)

        package var table: String {
            switch self {
            case .upsert(let table, _, _, _), .delete(let table, _): table
            }
        }

        package var pk: String {
            switch self {
            case .upsert(_, let pk, _, _), .delete(_, let pk): pk
            }
        }
    }
}

/// The ids a generated scenario uses: UUIDs whose last group says what they name (a1… users,
/// c1… devices, c2… observers, c3 the other actor, e1… rows, f1… mutations), as the corpus does.
package enum ExploreIDs {
    package static func uuid(_ prefix: String, _ number: Int) -> String {
        let digits = String(number)
        return "00000000-0000-4000-8000-" + prefix + String(repeating: "0", count: max(0, 10 - digits.count)) + digits
    }

    package static func user(_ index: Int) -> String { uuid("a1", index + 1) }
    package static func device(_ index: Int) -> String { uuid("c1", index + 1) }
    package static let actor = uuid("c3", 1)
    package static func row(table: Int, _ index: Int) -> String { uuid("e\(table + 1)", index + 1) }
    package static func mutation(_ index: Int) -> String { uuid("f1", index + 1) }
}
