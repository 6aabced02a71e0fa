import JSON

/// One page of the (seq, table, pk)-ordered stream after a cursor: the deliverable entries up
/// to the limit, the scan cap counting hidden candidates too, and the cursor that follows.
struct PageScanner {
    let store: Store
    let caller: Caller
    let tables: [String: SyncedTable]
    /// Requested bucket parameters by table.
    let buckets: [String: [JSONObject]]
    /// Seeded faults switched on (self-test only).
    var faults: Set<ServerFault> = []

    struct Grant: Hashable {
        var table: String
        var bucket: JSONValue
    }

    struct Page {
        var entries: [StreamEntry] = []
        var cursor: String = "0"
        var hasMore = false
        /// The stream position the page covers up to (for the conflict journal).
        var covered: Int64 = 0
    }

    /// Scans from `token` up to the high-water `highWater`, with `pending` the seqs stamped by
    /// transactions still open.
    func scan(start: Int64, position: Int64, holes: [Int64], highWater: Int64, pending: Set<Int64>, limit: Int, cap: Int)
        throws(ReferenceServerError) -> Page
    {
        // A page never holds more entries than it may examine; clamping keeps the arithmetic
        // below from overflowing on a huge limit or scan cap.
        let cap = min(cap, 1 << 30)
        let limit = min(limit, cap) + (faults.contains(.pageOverLimit) ? 1 : 0)
        var page = Page()
        var examined = 0
        var lastExamined: Int64?
        var stopped = false
        // Candidates come in batches just big enough for the page, so a page of 100 from a
        // large table decodes ~200 rows rather than the whole scan cap; the order and the
        // cap are those of one query of cap + 1 candidates.
        var fetched = 0
        // The grants this page earns are recorded once it is scanned: its tombstones are judged by
        // the grants the user held when the pull began (D-tombstone-delivery: "a first pull carries
        // no tombstone of a bucket value it had not received before"; the SQL pack records them
        // after its loop). `accord explore` found the reference granting mid-page (issue 39).
        var earned = Set<Grant>()
        var after = position
        var batchHoles = holes
        scanning: while fetched < cap + 1 {
            let want = min(cap + 1 - fetched, max(64 + batchHoles.count, (limit + 1) * 2))
            let batch = try store.stream(tables: Array(buckets.keys), after: after, holes: batchHoles, upTo: highWater, limit: want)
            fetched += batch.count
            for entry in batch {
                if examined >= cap {
                    stopped = true
                    break scanning
                }
                let deliverable = try isDeliverable(entry)
                if deliverable && page.entries.count == limit {
                    stopped = true
                    break scanning
                }
                examined += 1
                lastExamined = entry.seq
                if deliverable {
                    page.entries.append(entry)
                    if case .row(let row) = entry, let table = tables[row.table] {
                        earned.insert(Grant(table: row.table, bucket: table.bucketColumn.flatMap { row.data[$0] } ?? .null))
                    }
                }
            }
            guard batch.count == want, let last = batch.last?.seq else { break }
            after = max(after, last)
            batchHoles = []
        }
        for grant in earned { try store.grant(user: caller.user, table: grant.table, bucket: grant.bucket) }
        let reached: Int64
        if stopped {
            // The page's last entry (or, capped, the last candidate examined), as upstream's SQL
            // pack encodes a continuation (`_encode_continuation(start, last seq)`): below the
            // request's high-water when the page stopped inside hole fills, so the next page
            // goes on from there and the rest of the fills are not skipped.
            let last = page.entries.count == limit ? page.entries.last?.seq : lastExamined
            reached = last ?? position
        } else {
            reached = highWater
        }
        var open = Set<Int64>()
        for seq in pending where !faults.contains(.holeDropped) && (seq > position || holes.contains(seq)) && seq < reached {
            open.insert(seq)
        }
        // A committed hole stays open only when the page stopped before examining it; a page that
        // ran to the end examined every candidate, so a hole not among them belongs to another
        // table or bucket and closes.
        for hole in holes where stopped && hole < reached && hole > (lastExamined ?? 0) { open.insert(hole) }
        let holeText = open.sorted().map(String.init).joined(separator: ".")
        let suffix = holeText.isEmpty ? "" : "~" + holeText
        page.covered = reached
        if stopped {
            page.cursor = "\(start):\(reached)\(suffix)"
            page.hasMore = true
        } else {
            page.cursor = "\(faults.contains(.cursorPlusOne) ? reached + 1 : reached)\(suffix)"
            page.hasMore = !open.isEmpty || faults.contains(.hasMoreOnShortPage)
        }
        return page
    }

    /// True when the entry reaches this caller under the requested buckets.
    func isDeliverable(_ entry: StreamEntry) throws(ReferenceServerError) -> Bool {
        switch entry {
        case .row(let row):
            guard let table = tables[row.table] else { return false }
            return rowMatches(row.data, table: table)
        case .tombstone(let tombstone):
            if faults.contains(.tombstoneNotDelivered) { return false }
            guard let table = tables[tombstone.table], let params = buckets[tombstone.table] else { return false }
            let snapshot = tombstone.bucket ?? .null
            if let bucketColumn = table.bucketColumn {
                guard params.contains(where: { $0[bucketColumn] == snapshot }) else { return false }
            }
            guard try store.hasGrant(user: caller.user, table: table.name, bucket: snapshot) else { return false }
            if let live = try store.row(table.name, tombstone.pk), rowMatches(live.data, table: table) { return false }
            return true
        }
    }

    private func rowMatches(_ data: JSONObject, table: SyncedTable) -> Bool {
        guard caller.canSee(data, in: table), let params = buckets[table.name] else { return false }
        return params.contains { bucket in bucket.members.allSatisfy { data[$0.key] == $0.value } }
    }
}
