import Foundation

extension ClientStore {
    /// Records the identity a new store belongs to, or checks that a reopened store is opened under it: the local rows,
    /// outbox, cursor and watermark are one recovery unit of one user and client, and another identity must never send
    /// (or see) them. Another identity is refused with `STORE_UNAVAILABLE`; the store stays as it was, so reopening it
    /// under its own identity finds everything (docs/kill-matrix.md, "identity-change").
    /// - Parameters:
    ///   - db: the open database.
    ///   - userID: the user opening the store.
    ///   - clientID: the client opening the store.
    ///   - faults: with `share-store-across-identities` the check is skipped.
    /// - Throws: `ClientError` with `STORE_UNAVAILABLE` for another identity, `STORE` when the record cannot be read.
    static func claim(_ db: SQLiteDatabase, userID: String, clientID: String, faults: Set<ClientFault>) throws(ClientError) {
        try db.execute(
            "CREATE TABLE IF NOT EXISTS store_identity (id INTEGER PRIMARY KEY CHECK (id = 1), user_id TEXT NOT NULL, client_id TEXT NOT NULL);"
        )
        try db.query("INSERT OR IGNORE INTO store_identity (id, user_id, client_id) VALUES (1, ?, ?)", [.text(userID), .text(clientID)])
        let owner = try db.query("SELECT user_id, client_id FROM store_identity WHERE id = 1") { ($0.text(0) ?? "", $0.text(1) ?? "") }
        guard let (user, client) = owner.first, user != userID || client != clientID else { return }
        if faults.contains(.shareStoreAcrossIdentities) { return }
        db.close()
        throw ClientError(
            .storeUnavailable,
            "the store belongs to user \(user) and client \(client); it is not opened as user \(userID) and client \(clientID)")
    }
}
