import KizunaWire

extension WorldInference {
    /// A push's answer: applied mutations change the model; a rejection's or an abort's
    /// `server_row` is what the server held before the push.
    mutating func observePush(_ exchange: RecordedExchange, response: JSONObject) {
        let number = exchange.number
        let mutations = Self.mutations(of: exchange)
        if response["signal"].map({ !$0.isNull }) == true { return }
        if let batch = response["batch"]?.objectValue {
            if let offender = batch["offender_mutation_id"]?.stringValue,
                let mutation = mutations.first(where: { $0.mutationID == offender })
            {
                held(RowKey(table: mutation.table, pk: mutation.pk), batch["server_row"] ?? .null, before: number)
            }
            return
        }
        let verdicts = response["verdicts"]?.arrayValue ?? []
        var wrote = false
        for verdict in verdicts {
            guard let id = verdict["mutation_id"]?.stringValue, let mutation = mutations.first(where: { $0.mutationID == id }) else {
                continue
            }
            let key = RowKey(table: mutation.table, pk: mutation.pk)
            switch verdict["verdict"]?.stringValue {
            case "applied":
                guard applied.insert(id).inserted else { continue }
                apply(mutation, by: exchange)
                wrote = true
                if let row = verdict["server_row"]?.objectValue, var model = rows[key] {
                    fill(&model, with: row)
                    store(key, model)
                }
            case "rejected":
                guard !applied.contains(id) else { continue }
                rejected(mutation, reason: verdict["reason"]?.stringValue ?? "", serverRow: verdict["server_row"] ?? .null, by: exchange)
            default:
                continue
            }
        }
        if wrote { writers.append(number) }
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
            var after = 0
            if case .push(let last)? = rows[key]?.writer { after = last }
            let index = infer(
                Pending(
                    change: WorldChange(
                        .upsert(columns), table: key.table, pk: key.pk,
                        reason:
                            "\(Self.label(key)) was \(mutation.op == .delete ? "deleted" : "updated") by exchange \(number), so it was there before"
                    ),
                    seq: nil, after: after, before: number))
            let keys = Set(keyColumns(of: key.table) + [bucketColumn(of: key.table)])
            model = ModelRow(
                columns: columns, guessed: Set(columns.keys.filter { !keys.contains($0) }), writer: .world(index), purpose: index)
        }
        let bucketColumn = bucketColumn(of: key.table)
        let bucketBefore = model.columns[bucketColumn]
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
        model.moved = mutation.op == .update && bucketBefore != nil && model.columns[bucketColumn] != bucketBefore
        model.writer = .push(number)
        model.seq = nil
        wrote(key, .push(number))
        store(key, model)
    }

    /// A rejected mutation: the server's row, as the verdict shows it, was there before the push.
    mutating func rejected(_ mutation: Mutation, reason: String, serverRow: JSONValue, by exchange: RecordedExchange) {
        let number = exchange.number
        let key = RowKey(table: mutation.table, pk: mutation.pk)
        switch reason {
        case "RLS_DENIED" where serverRow.isNull:
            // Absent and hidden look the same; a row the model has live in the caller's own bucket does not.
            if let model = rows[key], model.live, let user = exchange.user, model.columns[bucketColumn(of: key.table)] == .string(user) {
                notInferable[number] =
                    "\(Self.label(key)) was refused RLS_DENIED though the recording last showed it in the caller's bucket: what hid it is not on the wire"
            }
        case "DELETE_WINS":
            if let model = rows[key], model.live { held(key, .null, before: number) }
        default:
            held(key, serverRow, before: number)
        }
    }

    /// What a verdict shows the server held for a row before the push at `number` (null: no
    /// live row the caller can see): nothing when the model agrees, else the change that made it so.
    mutating func held(_ key: RowKey, _ shown: JSONValue, before number: Int) {
        let model = rows[key]
        var after = 0
        if case .push(let last)? = model?.writer { after = last }
        if let row = shown.objectValue {
            if var model, model.live, model.agrees(row) {
                fill(&model, with: row)
                store(key, model)
                return
            }
            let index = infer(
                Pending(
                    change: WorldChange(
                        .upsert(row), table: key.table, pk: key.pk,
                        reason: "\(Self.label(key)) as the verdict of exchange \(number) shows it"),
                    seq: nil, after: after, before: number))
            wrote(key, .world(index))
            store(key, ModelRow(columns: row, writer: .world(index)))
        } else if let model, model.live {
            let index = infer(
                Pending(
                    change: WorldChange(
                        .delete, table: key.table, pk: key.pk, reason: "\(Self.label(key)) was gone when exchange \(number) was answered"),
                    seq: nil, after: after, before: number))
            wrote(key, .world(index))
            store(key, ModelRow(columns: [:], live: false, writer: .world(index)))
        }
    }

    /// A push's mutations that read strictly; a malformed one is the recorded service's to judge.
    static func mutations(of exchange: RecordedExchange) -> [Mutation] {
        let at = JSONPointer(tokens: ["batch", "mutations"])
        return (exchange.request["batch"]?["mutations"]?.arrayValue ?? []).enumerated().compactMap { index, value in
            try? Mutation(json: value, at: at.appending(index), malformed: .malformedRequest)
        }
    }
}
