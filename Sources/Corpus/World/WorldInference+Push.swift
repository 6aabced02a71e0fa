import JSON
import KizunaWire

extension WorldInference {
    /// What an applied update overwrote, for a pull's conflict journal to compare its loser with:
    /// the push, the row, the writer before it, and the values of the columns it set.
    struct Overwrite: Sendable {
        var exchange: Int
        var key: RowKey
        var priorWriter: Writer?
        var values: JSONObject
    }

    /// A push's answer: applied mutations change the model; a verdict's or an abort's
    /// `server_row` shows what the server held for the row, so what the model does not explain
    /// was there before the push.
    mutating func observePush(_ exchange: RecordedExchange, response: JSONObject) {
        let number = exchange.number
        let mutations = Self.mutations(of: exchange)
        if response["signal"].map({ !$0.isNull }) == true { return }
        if let batch = response["batch"]?.objectValue {
            // The offender's row as the aborted transaction saw it: after the siblings before it.
            if let offender = batch["offender_mutation_id"]?.stringValue,
                let index = mutations.firstIndex(where: { $0.mutationID == offender })
            {
                let key = RowKey(table: mutations[index].table, pk: mutations[index].pk)
                let siblings = mutations[..<index].filter { $0.table == key.table && $0.pk == key.pk }
                held(key, batch["server_row"] ?? .null, before: number, through: Array(siblings), committed: false)
            }
            return
        }
        var wrote = false
        var thisPush: [RowKey: [Mutation]] = [:]
        for verdict in response["verdicts"]?.arrayValue ?? [] {
            guard let id = verdict["mutation_id"]?.stringValue, let mutation = mutations.first(where: { $0.mutationID == id }) else {
                continue
            }
            let key = RowKey(table: mutation.table, pk: mutation.pk)
            switch verdict["verdict"]?.stringValue {
            case "applied":
                guard applied.insert(id).inserted else { continue }
                if let precondition = mutation.precondition { met(precondition, of: key, before: number) }
                let prior = rows[key]
                if mutation.op == .update, !mutation.columns.members.isEmpty, let prior, prior.live {
                    overwrites[id] = Overwrite(
                        exchange: number, key: key, priorWriter: prior.writer,
                        values: JSONObject(
                            pairs: mutation.columns.members.compactMap { member in prior.columns[member.key].map { (member.key, $0) } }))
                }
                apply(mutation, by: exchange)
                thisPush[key, default: []].append(mutation)
                wrote = true
                if let row = verdict["server_row"], !row.isNull {
                    held(key, row, before: number, through: thisPush[key] ?? [], committed: true, priorWriter: prior?.writer)
                }
            case "rejected":
                guard !applied.contains(id) else { continue }
                rejected(
                    mutation, reason: verdict["reason"]?.stringValue ?? "", serverRow: verdict["server_row"] ?? .null, by: exchange,
                    through: thisPush[key] ?? [])
            default:
                continue
            }
        }
        if wrote { writers.append(number) }
    }

    /// An applied mutation's precondition held: the row had those values before the push. Where
    /// the model had others, another actor wrote them.
    mutating func met(_ precondition: JSONObject, of key: RowKey, before number: Int) {
        guard var model = rows[key], model.live else { return }
        let differing = precondition.members.filter { !model.guessed.contains($0.key) && (model.columns[$0.key] ?? .null) != $0.value }
        guard !differing.isEmpty else { return }
        let columns = JSONObject(differing)
        let index = infer(
            .upsert(columns), of: key, before: number,
            reason: "\(Self.label(key)) met the precondition of exchange \(number), which the recording's last state of it did not")
        wrote(key, .world(index))
        model.columns = columns.merging(over: model.columns)
        model.writer = .world(index)
        model.seq = nil
        store(key, model)
    }

    /// A push whose answer never reached the client (status 0): the server applied it, so its
    /// mutations are taken as applied.
    mutating func observeLostPush(_ exchange: RecordedExchange) {
        var wrote = false
        for mutation in Self.mutations(of: exchange) where applied.insert(mutation.mutationID).inserted {
            apply(mutation, by: exchange)
            wrote = true
        }
        if wrote { writers.append(exchange.number) }
    }

    /// An applied mutation's effect on the model. A mutation of a row the model does not have
    /// proves the row was there: one is made for the purpose before the push, its other columns
    /// supposed from a row of the table until an answer shows them.
    mutating func apply(_ mutation: Mutation, by exchange: RecordedExchange) {
        let number = exchange.number
        let key = RowKey(table: mutation.table, pk: mutation.pk)
        var model: ModelRow
        if let known = rows[key], known.live {
            model = known
        } else if mutation.op == .insert {
            model = ModelRow(columns: mutation.columns, writer: .push(number))
        } else {
            let bucket: JSONValue = exchange.user.map { .string($0) } ?? .null
            let columns = purposeRow(key, bucket: bucket)
            let verb = mutation.op == .delete ? "deleted" : "updated"
            let index = infer(
                .upsert(columns), of: key, before: number,
                reason: "\(Self.label(key)) was \(verb) by exchange \(number), so it was there before")
            let keys = Set(keyColumns(of: key.table) + [bucketColumn(of: key.table)])
            model = ModelRow(
                columns: columns, guessed: Set(columns.keys.filter { !keys.contains($0) }), writer: .world(index), purpose: index)
        }
        let bucketColumn = bucketColumn(of: key.table)
        let bucketBefore = model.columns[bucketColumn]
        Self.apply(mutation, to: &model)
        model.moved = mutation.op == .update && bucketBefore != nil && model.columns[bucketColumn] != bucketBefore
        model.writer = .push(number)
        model.seq = nil
        model.floor = highWater
        wrote(key, .push(number))
        store(key, model)
    }

    /// A mutation's effect on a row's columns, as the protocol defines it.
    static func apply(_ mutation: Mutation, to model: inout ModelRow) {
        switch mutation.op {
        case .insert, .update:
            for member in mutation.columns.members {
                model.columns[member.key] = member.value
                model.guessed.remove(member.key)
                model.touched.insert(member.key)
            }
            for (column, transform) in mutation.transforms {
                if !model.guessed.contains(column), let value = transform.applied(to: model.columns[column]) {
                    model.columns[column] = value
                } else {
                    model.guessed.insert(column)
                }
                model.touched.insert(column)
            }
            model.live = true
        case .delete:
            model.live = false
        }
    }

    /// A rejected mutation: what the verdict shows of the row was there before the push.
    mutating func rejected(_ mutation: Mutation, reason: String, serverRow: JSONValue, by exchange: RecordedExchange, through: [Mutation]) {
        let number = exchange.number
        let key = RowKey(table: mutation.table, pk: mutation.pk)
        switch reason {
        case "RLS_DENIED" where serverRow.isNull:
            // Absent and hidden look the same; a row the model has live in the caller's own bucket does not.
            // An insert into the caller's own bucket refused RLS_DENIED: the key was another user's row.
            if mutation.op == .insert, rows[key]?.live != true, let user = exchange.user,
                mutation.columns[bucketColumn(of: key.table)] == .string(user)
            {
                let columns = purposeRow(key, bucket: .string(Self.fillerBucket))
                let index = infer(
                    .upsert(columns), of: key, before: number,
                    reason: "\(Self.label(key)) refused an insert by exchange \(number) RLS_DENIED: another user's row held the key")
                wrote(key, .world(index))
                let keys = Set(keyColumns(of: key.table))
                store(
                    key,
                    ModelRow(
                        columns: columns, guessed: Set(columns.keys.filter { !keys.contains($0) }), writer: .world(index), purpose: index))
                return
            }
            // Absent and hidden look the same; a row the model has live in the caller's own bucket
            // was moved out of it (a move leaves a tombstone in the old bucket, which explains one later).
            if var model = rows[key], model.live, let user = exchange.user {
                let column = bucketColumn(of: key.table)
                guard model.columns[column] == .string(user) else { return }
                let elsewhere: JSONValue = .string(Self.fillerBucket)
                let index = infer(
                    .upsert([column: elsewhere]), of: key, before: number,
                    reason:
                        "\(Self.label(key)) was refused RLS_DENIED by exchange \(number) though the recording last showed it in the caller's bucket: moved to a bucket no answer names"
                )
                wrote(key, .world(index))
                model.columns[column] = elsewhere
                model.guessed.insert(column)
                model.purpose = index
                model.touched = []
                model.moved = true
                model.writer = .world(index)
                model.seq = nil
                store(key, model)
            }
        case "DELETE_WINS":
            if let model = rows[key], model.live { held(key, .null, before: number, through: through, committed: true) }
        case "SUPERSEDED":
            // The row's cells carried later origin clocks than the mutation's: a world write must too.
            held(key, serverRow, before: number, through: through, committed: true, hlcAbove: mutation.hlc)
        default:
            held(key, serverRow, before: number, through: through, committed: true)
        }
    }

    /// What a verdict shows of a row (null: no live row the caller can see) once `through` took
    /// effect on the state the row had before the push at `number` (`committed`: they stay, as
    /// applied mutations; else they were rolled back, as an aborted batch's siblings). Nothing
    /// is inferred when the model agrees; else the row's state before the push is another actor's
    /// change, its columns undone through `through`'s transforms (a column `through` set is hidden).
    mutating func held(
        _ key: RowKey, _ shown: JSONValue, before number: Int, through: [Mutation], committed: Bool, priorWriter: Writer? = nil,
        hlcAbove: String? = nil
    ) {
        var expected = rows[key]
        if !committed, var model = expected {
            for mutation in through { Self.apply(mutation, to: &model) }
            expected = model
        }
        var after = 0
        if case .push(let last)? = priorWriter ?? rows[key]?.writer, last != number { after = last }
        guard let row = shown.objectValue else {
            if let model = rows[key], model.live {
                let index = infer(
                    .delete, of: key, before: number, reason: "\(Self.label(key)) was gone when exchange \(number) was answered",
                    after: after)
                wrote(key, .world(index))
                store(key, ModelRow(columns: [:], live: false, writer: .world(index)))
            }
            return
        }
        let before = Self.undo(through, from: row)
        if let model = expected, model.live, model.agrees(row) {
            var current = rows[key] ?? model
            fill(&current, with: committed ? row : before.merging(over: current.columns))
            store(key, current)
            return
        }
        let index = infer(
            .upsert(before), of: key, before: number, reason: "\(Self.label(key)) as the verdict of exchange \(number) shows it",
            after: after,
            hlc: hlcAbove.flatMap(Self.clock(above:)))
        wrote(key, .world(index))
        var model = ModelRow(columns: before, writer: .world(index))
        if committed && !through.isEmpty {
            // This push's own mutations of the row came after the inferred change: the row is theirs.
            for mutation in through { Self.apply(mutation, to: &model) }
            model.columns = row.merging(over: model.columns)
            model.writer = .push(number)
        }
        store(key, model)
    }

    /// A row's columns before `mutations`, from the row after them: a column they set is hidden
    /// and left out, a transformed one undone (an increment subtracted, an arrayUnion's appended
    /// values taken off the end; an arrayRemove cannot be undone and leaves the column out).
    static func undo(_ mutations: [Mutation], from row: JSONObject) -> JSONObject {
        var columns = row
        for mutation in mutations.reversed() {
            for member in mutation.columns.members { columns[member.key] = nil }
            for (column, transform) in mutation.transforms.reversed() {
                guard let value = columns[column] else { continue }
                columns[column] = transform.undone(from: value)
            }
        }
        return columns
    }

    /// An origin clock just above `hlc`: the same time, the next logical count, the world's node.
    static func clock(above hlc: String) -> String? {
        let parts = hlc.split(separator: "|", omittingEmptySubsequences: false)
        guard parts.count == 3, let logical = Int(parts[1]) else { return nil }
        return "\(parts[0])|\(logical + 1)|\(WorldChange.actor)"
    }

    /// A push's mutations that read strictly; a malformed one is the recorded service's to judge.
    static func mutations(of exchange: RecordedExchange) -> [Mutation] {
        let at = JSONPointer(tokens: ["batch", "mutations"])
        return (exchange.request["batch"]?["mutations"]?.arrayValue ?? []).enumerated().compactMap { index, value in
            try? Mutation(json: value, at: at.appending(index), malformed: .malformedRequest)
        }
    }
}

extension Transform {
    /// The value before this transform, from the value after it, where that can be told: an
    /// increment subtracted; an arrayUnion's values taken off the end where they were appended;
    /// nil for an arrayRemove (where the values stood is gone).
    func undone(from value: JSONValue) -> JSONValue? {
        switch self {
        case .increment(let by):
            guard let delta = Self.integer(by), case .number(let number) = value, let result = Int64(number.literal) else { return nil }
            let (before, overflow) = result.subtractingReportingOverflow(delta)
            return overflow ? nil : .number(JSONNumber(literal: String(before)))
        case .arrayUnion(let values):
            guard var items = value.arrayValue else { return nil }
            for appended in values.reversed() where items.last == appended { items.removeLast() }
            return .array(items)
        case .arrayRemove:
            return nil
        }
    }
}

extension JSONObject {
    /// These members over `base`: every member of `base`, replaced where this object has the key.
    func merging(over base: JSONObject) -> JSONObject {
        var merged = base
        for member in members { merged[member.key] = member.value }
        return merged
    }
}
