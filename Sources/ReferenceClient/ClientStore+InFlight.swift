import Foundation
import JSON
import KizunaWire

/// The push in flight: the exact request body sent (or about to be sent), the request it encodes and the outbox entries
/// it carries. It is persisted before the send and cleared only by a definitive answer, so that an uncertain outcome
/// (`REMOTE`) resends the same bytes and watermark, also after a reopen (PROTOCOL-NOTES §4).
struct InFlightPush: Sendable {
    /// The exact request body, byte for byte as first sent.
    var body: [UInt8]
    /// The request the body encodes; the answer is validated against it.
    var request: PushRequest
    /// The outbox entries the request carries, in issue order.
    var batch: [OutboxEntry]
}

extension ClientStore {
    /// The push to send now: the persisted push in flight when there is one (sent again unchanged), else a new request
    /// over the head of the outbox, persisted (exact body and outbox range) in one transaction before it is returned.
    /// - Parameters:
    ///   - maxEntries: the most ordinary entries a new request carries (an atomic run is never split).
    ///   - schemaVersion: the schema version a new request carries.
    ///   - clientID: the client id a new request carries.
    /// - Returns: the push, or nil when nothing is in flight and the outbox is empty.
    /// - Throws: `ClientError` with `STORE` or `JSON`.
    func nextPush(maxEntries: Int, schemaVersion: Int, clientID: String) throws(ClientError) -> InFlightPush? {
        if let pending = try inFlightPush() { return pending }
        return try db.transaction { () throws(ClientError) -> InFlightPush? in
            var batch = try head(maxEntries: maxEntries)
            guard let first = batch.first else { return nil }
            if faults.contains(.splitAtomicRun) && first.atomicGroup != nil { batch = [first] }
            let request = PushRequest(
                atomic: first.atomicGroup != nil, mutations: batch.map(\.mutation), lastMutationID: lastMutationID,
                schemaVersion: schemaVersion, clientID: clientID)
            let body = CanonicalJSON.compact(request.json)
            try db.query(
                "INSERT INTO push_in_flight (id, first_seq, last_seq, body) VALUES (1, ?, ?, ?)",
                [.integer(first.sequence), .integer(batch.last?.sequence ?? first.sequence), .text(body)])
            return InFlightPush(body: Array(body.utf8), request: request, batch: batch)
        }
    }

    /// The persisted push in flight, with its outbox entries, or nil when none is.
    /// - Returns: the push in flight.
    /// - Throws: `ClientError` with `STORE` when the record does not parse or no longer matches the outbox.
    func inFlightPush() throws(ClientError) -> InFlightPush? {
        let rows = try db.query("SELECT first_seq, last_seq, body FROM push_in_flight WHERE id = 1") {
            ($0.integer(0), $0.integer(1), $0.text(2) ?? "")
        }
        guard let (first, last, body) = rows.first else { return nil }
        let request: PushRequest
        do {
            request = try PushRequest(json: try JSONParser.parse(body), at: .root)
        } catch {
            throw ClientError(.store, "the push in flight is not a push request: \(error)")
        }
        let batch = try entries(from: first, through: last)
        guard batch.map(\.mutation.mutationID) == request.mutations.map(\.mutationID) else {
            throw ClientError(.store, "the push in flight no longer matches outbox entries \(first)...\(last)")
        }
        return InFlightPush(body: Array(body.utf8), request: request, batch: batch)
    }

    /// Forgets the push in flight in its own transaction (after a wire-contract violation, which applies nothing).
    /// - Throws: `ClientError` with `STORE`.
    func abandonPush() throws(ClientError) {
        try db.transaction { () throws(ClientError) in try clearInFlight() }
    }

    /// Forgets the push in flight (inside the transaction that applies its definitive answer).
    func clearInFlight() throws(ClientError) {
        try db.query("DELETE FROM push_in_flight")
    }

    /// Gives the head entry a fresh mutation id and forgets the push in flight, in one transaction, so that the next
    /// pushOnce rebuilds its request with the new id (the `new-id-on-resend` fault).
    /// - Parameter entry: the head entry.
    /// - Throws: `ClientError` with `STORE`.
    func renumberHead(_ entry: OutboxEntry) throws(ClientError) {
        var mutation = entry.mutation
        mutation.mutationID = UUID().uuidString.lowercased()
        try db.transaction { () throws(ClientError) in
            try db.query(
                "UPDATE outbox SET mutation_id = ?, mutation = ? WHERE seq = ?",
                [.text(mutation.mutationID), .text(CanonicalJSON.compact(mutation.json)), .integer(entry.sequence)])
            try clearInFlight()
        }
    }
}
