import JSON
import KizunaWire

extension WorldInference {
    /// A pull's answer: its rows and tombstones against the model, its cursor as a mark, a signal
    /// as what the server must have been.
    mutating func observePull(_ exchange: RecordedExchange, response: JSONObject) {
        let number = exchange.number
        let client = exchange.client ?? exchange.request["client_id"]?.stringValue ?? ""
        let signal = response["signal"]?["type"]?.stringValue
        if signal == "RESET_REQUIRED" { return }
        if let version = exchange.request["schema_version"]?.numberValue?.intValue { answeredVersions[version, default: []].append(number) }
        let requested = exchange.request["cursor"]?.stringValue.flatMap { try? CursorToken(parsing: $0) }
        if signal == "CHECKPOINT_EXPIRED" {
            expired(number, since: requested?.transferStart ?? .zero)
            return
        }
        guard signal == nil else { return }
        let buckets = exchange.request["buckets"]?.arrayValue ?? []
        // A page that said has_more had a deliverable entry after it: the first of the page that continues it.
        if let open = openPages.removeValue(forKey: client), open.cursor == exchange.request["cursor"]?.stringValue {
            let seqs = ((response["rows"]?.arrayValue ?? []) + (response["tombstones"]?.arrayValue ?? [])).compactMap {
                $0["seq"]?.stringValue.flatMap(SequenceNumber.init)
            }
            if let first = seqs.min() { writtenBefore.append((first, open.exchange)) }
        }
        if response["has_more"]?.boolValue == true, let cursor = response["cursor"]?.stringValue {
            openPages[client] = (number, cursor)
        }
        var onPage = Set<RowKey>()
        for entry in response["rows"]?.arrayValue ?? [] {
            guard let table = entry["table"]?.stringValue, let pk = entry["pk"]?.stringValue,
                let seq = entry["seq"]?.stringValue.flatMap(SequenceNumber.init), let row = entry["row"]?.objectValue
            else { continue }
            if templates[table] == nil { templates[table] = row }
            onPage.insert(RowKey(table: table, pk: pk))
            shown(RowKey(table: table, pk: pk), row: row, at: seq, by: number)
        }
        for entry in response["tombstones"]?.arrayValue ?? [] {
            guard let table = entry["table"]?.stringValue, let pk = entry["pk"]?.stringValue,
                let seq = entry["seq"]?.stringValue.flatMap(SequenceNumber.init)
            else { continue }
            let bucket = buckets.first { $0["table"]?.stringValue == table }?["params"]?[bucketColumn(of: table)]
            tombstone(RowKey(table: table, pk: pk), at: seq, by: number, bucket: bucket ?? .null)
        }
        for conflict in response["conflicts"]?.arrayValue ?? [] { journaled(conflict) }
        guard let text = response["cursor"]?.stringValue, let token = try? CursorToken(parsing: text) else { return }
        if let requested, requested.holes.isEmpty, token.holes.isEmpty {
            leftOut(buckets, after: requested.highWater, upTo: token.highWater, complete: !token.isContinuation, onPage: onPage, by: number)
        }
        if !token.holes.isEmpty {
            notInferable[number] =
                "the recorded cursor \"\(text)\" has holes (transactions in flight on the recorded service), which a replay cannot hold open"
            holed.insert(client)
        } else if holed.contains(client) {
            notInferable[number] =
                "the request carries a cursor whose holes a replay could not reopen (transactions in flight on the recorded service)"
            holed.remove(client)
        }
        marks.append(Mark(exchange: number, seq: token.highWater, complete: !token.isContinuation))
        if !token.isContinuation { highWater = max(highWater, token.highWater) }
    }

    /// A row a pull shows at a recorded seq.
    mutating func shown(_ key: RowKey, row: JSONObject, at seq: SequenceNumber, by number: Int) {
        if var model = rows[key], model.live, model.agrees(row), model.seq == nil || model.seq == seq {
            if model.seq == nil { identify(seq, model.writer, shownBy: number) }
            // Shown where a page seemed to leave it out: that page's buckets did not cover it after all.
            absent[key] = nil
            fill(&model, with: row)
            model.seq = seq
            store(key, model)
            return
        }
        // A move seen first from the old bucket: the delete inferred at this seq was an upsert.
        if case .world(let index)? = identified[seq]?.writer, pending[index].change.table == key.table, pending[index].change.pk == key.pk {
            pending[index].change.operation = .upsert(row)
            pending[index].create = nil
            pending[index].before = min(pending[index].before, number)
            store(key, ModelRow(columns: row, writer: .world(index), seq: seq))
            return
        }
        let index = infer(.upsert(row), of: key, before: number, reason: "\(Self.label(key)) at seq \(seq), shown by exchange \(number)")
        identify(seq, .world(index), shownBy: number)
        wrote(key, .world(index))
        store(key, ModelRow(columns: row, writer: .world(index), seq: seq))
    }

    /// A conflict journal entry names the value a recorded update overwrote: where the model had
    /// another value there, another actor wrote the loser before that push.
    mutating func journaled(_ conflict: JSONValue) {
        guard let winner = conflict["winner_mutation_id"]?.stringValue, let column = conflict["column_name"]?.stringValue,
            let loser = conflict["loser_value"], let overwrite = overwrites.removeValue(forKey: winner),
            overwrite.values[column] != loser
        else { return }
        var after = 0
        if case .push(let last)? = overwrite.priorWriter { after = last }
        infer(
            .upsert([column: loser]), of: overwrite.key, before: overwrite.exchange,
            reason:
                "\(Self.label(overwrite.key)) held \(column) \(CanonicalJSON.compact(loser)) when exchange \(overwrite.exchange) overwrote it, as a conflict journal shows",
            after: after)
    }

    /// A page is a prefix of the stream in its buckets: a live row the model has in them at a seq
    /// the page covers, and that the page leaves out, had been written again before the pull.
    /// A row a recorded push wrote at a seq no answer showed is covered by a complete page whose
    /// transfer began at or below the high-water before that push. A row left out that nothing
    /// writes again was deleted (`place()`).
    mutating func leftOut(
        _ buckets: [JSONValue], after from: SequenceNumber, upTo to: SequenceNumber, complete: Bool, onPage: Set<RowKey>, by number: Int
    ) {
        for bucket in buckets {
            guard let table = bucket["table"]?.stringValue, let params = bucket["params"]?.objectValue,
                let value = params[bucketColumn(of: table)]
            else { continue }
            guard let bucketRows = rows(in: table, bucket: value) else { continue }
            func matches(_ model: ModelRow) -> Bool { params.members.allSatisfy { model.columns[$0.key] == $0.value } }
            for (_, key) in bucketRows.numbered(after: from, upTo: to) where !onPage.contains(key) && absent[key] == nil {
                if let model = rows[key], matches(model) { absent[key] = number }
            }
            guard complete else { continue }
            for key in bucketRows.unnumbered where !onPage.contains(key) && absent[key] == nil {
                guard let model = rows[key], case .push = model.writer, let floor = model.floor, from <= floor, matches(model) else {
                    continue
                }
                absent[key] = number
            }
        }
    }

    /// A tombstone a pull shows at a recorded seq.
    mutating func tombstone(_ key: RowKey, at seq: SequenceNumber, by number: Int, bucket: JSONValue) {
        if var model = rows[key] {
            let explained: Bool
            if !model.live {
                explained = model.seq == nil || model.seq == seq
            } else if model.seq == seq {
                // A move: the row lives on in another bucket, written at this seq.
                explained = true
            } else if model.seq == nil, model.moved {
                explained = true
            } else {
                explained = false
            }
            if explained {
                if model.seq == nil {
                    identify(seq, model.writer, shownBy: number)
                    model.seq = seq
                    store(key, model)
                }
                return
            }
        }
        // A move seen first from the new bucket: the upsert inferred at this seq explains it.
        if case .world(let index)? = identified[seq]?.writer, pending[index].change.table == key.table, pending[index].change.pk == key.pk {
            return
        }
        let create = rows[key]?.live == true ? nil : purposeRow(key, bucket: bucket)
        let reason =
            create == nil
            ? "\(Self.label(key)) deleted at seq \(seq), shown by exchange \(number)"
            : "\(Self.label(key)) deleted at seq \(seq), shown by exchange \(number); the row itself was never shown, so one is made for the purpose"
        let index = infer(.delete, of: key, before: number, reason: reason, create: create)
        identify(seq, .world(index), shownBy: number)
        wrote(key, .world(index))
        store(key, ModelRow(columns: [:], live: false, writer: .world(index), seq: seq))
    }

    /// A pull answered CHECKPOINT_EXPIRED: the reaper ran since its transfer started, after a
    /// tombstone above the start (one made for the purpose, in a bucket no recorded client pulls,
    /// when the model has none).
    mutating func expired(_ number: Int, since start: SequenceNumber) {
        let reapable = rows.values.contains { !$0.live && ($0.seq.map { $0 > start } ?? true) }
        if !reapable, let filler = fillerRow() {
            infer(
                .delete, of: RowKey(table: filler.table, pk: filler.pk), before: number,
                reason: "a tombstone above the transfer start \(start) for the reap before exchange \(number) to reap", after: 0,
                create: filler.columns)
        }
        infer(
            Pending(
                change: WorldChange(
                    .reap, reason: "exchange \(number) was answered CHECKPOINT_EXPIRED for a transfer that began at \(start)"),
                seq: nil, after: 0, before: number))
    }

    /// Fills what the model only supposed of a row with what an answer shows, in the change that
    /// made the row for the purpose too (its columns no recorded push wrote since).
    mutating func fill(_ model: inout ModelRow, with row: JSONObject) {
        if let index = model.purpose, case .upsert(var columns) = pending[index].change.operation {
            for member in row.members where !model.touched.contains(member.key) { columns[member.key] = member.value }
            pending[index].change.operation = .upsert(columns)
            model.purpose = nil
        }
        model.columns = row
        model.guessed = []
    }

    /// A row made for the purpose: the shape of a row seen in the table, with this key and bucket.
    func purposeRow(_ key: RowKey, bucket: JSONValue) -> JSONObject {
        var columns = templates[key.table] ?? JSONObject()
        let keys = keyColumns(of: key.table)
        if keys.count == 1 {
            columns[keys[0]] = Self.keyValue(key.pk, shapedLike: columns[keys[0]])
        } else if let parts = (try? JSONParser.parse(key.pk))?.arrayValue, parts.count == keys.count {
            for (name, part) in zip(keys, parts) { columns[name] = Self.keyValue(part.stringValue ?? "", shapedLike: columns[name]) }
        }
        if !bucket.isNull { columns[bucketColumn(of: key.table)] = bucket }
        return columns
    }

    /// A key part as a column value: a number where the table's key column holds numbers.
    static func keyValue(_ text: String, shapedLike sample: JSONValue?) -> JSONValue {
        if case .number? = sample, SequenceNumber.isCanonical(text.utf8) { return .number(JSONNumber(literal: text)) }
        return .string(text)
    }
}
