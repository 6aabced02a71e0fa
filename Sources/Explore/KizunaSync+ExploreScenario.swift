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

        package init(
            seed: UInt64, index: Int, users: [String], devices: [Device], server: ServerConfig, tables: [String],
            actions: [ExploreAction]
        ) {
            self.seed = seed
            self.index = index
            self.users = users
            self.devices = devices
            self.server = server
            self.tables = tables
            self.actions = actions
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

        /// The device the action is of, if any.
        package var device: Int? {
            switch self {
            case .write(let device, _), .push(let device, _, _, _), .pull(let device, _), .settlePush(let device),
                .settlePull(let device, _):
                device
            case .server, .reap, .observe: nil
            }
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
