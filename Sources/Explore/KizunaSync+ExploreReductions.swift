import JSON
import KizunaWire

extension KizunaSync.ExploreScenario {
    /// Smaller scenarios to try while shrinking, the biggest cuts first: a device and all it
    /// did; runs of actions (halves, quarters, … single actions, as delta debugging does); then
    /// each action made simpler (a lost answer kept, an atomic batch plain, one entry pushed, a
    /// pull without a limit, a held change committed at once, a precondition, transform or
    /// column dropped). Device 0 stays: it is the transcript's own client.
    package var reductions: [Self] {
        var candidates: [Self] = []
        for device in devices.indices.dropFirst().reversed() { candidates.append(removing(device: device)) }
        var size = actions.count / 2
        while size >= 1 {
            for start in stride(from: 0, to: actions.count, by: size) {
                var candidate = self
                candidate.actions.removeSubrange(start..<min(start + size, actions.count))
                candidates.append(candidate)
            }
            size /= 2
        }
        if let driven, driven.fault != .none {
            var candidate = self
            candidate.driven?.fault = .none
            candidates.append(candidate)
            if driven.fault.instant > 0 {
                // At its first instant, a finding replays under `accord run`'s matrices.
                candidate.driven?.fault = driven.fault.atFirstInstant
                candidates.append(candidate)
            }
        }
        for (index, action) in actions.enumerated() {
            for simpler in Self.simpler(action) {
                var candidate = self
                candidate.actions[index] = simpler
                candidates.append(candidate)
            }
        }
        return candidates
    }

    /// How big the scenario is, for "smaller": devices, then actions, then what the writes carry.
    package var size: Int {
        let fault = driven.map { $0.fault == .none ? 0 : 1 + $0.fault.instant } ?? 0
        return actions.reduce(devices.count * 100_000 + actions.count * 1000 + fault) { total, action in
            switch action {
            case .write(_, let mutation):
                total + mutation.columns.count + mutation.transforms.count + (mutation.precondition == nil ? 0 : 1)
            case .push(_, let count, let atomic, let lost): total + count + (atomic ? 1 : 0) + (lost ? 1 : 0)
            case .pull(_, let limit), .settlePull(_, let limit), .observe(_, let limit): total + (limit.map { 4 - min($0, 3) } ?? 0)
            case .server(let change, let heldFor):
                total + (heldFor > 0 ? 1 : 0) + { if case .upsert(_, _, let columns, _) = change { columns.count } else { 0 } }()
            case .atomicWrites(_, let mutations): total + 10 * mutations.count
            case .brokenAnswer, .failedPull: total + 1
            case .reap, .settlePush: total
            }
        }
    }

    func removing(device: Int) -> Self {
        var candidate = self
        candidate.devices.remove(at: device)
        candidate.actions = actions.compactMap { action in
            guard let owner = action.device else { return action }
            if owner == device { return nil }
            return owner > device ? action.moved(to: owner - 1) : action
        }
        return candidate
    }

    static func simpler(_ action: KizunaSync.ExploreAction) -> [KizunaSync.ExploreAction] {
        switch action {
        case .write(let device, let mutation):
            var out: [KizunaSync.ExploreAction] = []
            if mutation.precondition != nil {
                var simpler = mutation
                simpler.precondition = nil
                out.append(.write(device: device, simpler))
            }
            if !mutation.transforms.isEmpty {
                for index in mutation.transforms.indices {
                    var simpler = mutation
                    simpler.transforms.remove(at: index)
                    simpler.hasTransformsKey = !simpler.transforms.isEmpty
                    out.append(.write(device: device, simpler))
                }
            }
            // A write keeps its clock (a table resolved by hlc refuses one without) and an insert
            // its bucket column (a real insert carries the whole row).
            for member in mutation.columns.members where mutation.op != .delete && !(mutation.op == .insert && member.key == "owner_id") {
                var simpler = mutation
                simpler.columns = JSONObject(mutation.columns.members.filter { $0.key != member.key })
                out.append(.write(device: device, simpler))
            }
            return out
        case .push(let device, let count, let atomic, let lost):
            var out: [KizunaSync.ExploreAction] = []
            if lost { out.append(.push(device: device, count: count, atomic: atomic, answerLost: false)) }
            if atomic { out.append(.push(device: device, count: count, atomic: false, answerLost: lost)) }
            if count > 1 { out.append(.push(device: device, count: 1, atomic: atomic, answerLost: lost)) }
            return out
        case .pull(let device, _?): return [.pull(device: device, limit: nil)]
        case .settlePull(let device, _?): return [.settlePull(device: device, limit: nil)]
        case .observe(let user, _?): return [.observe(user: user, limit: nil)]
        case .server(let change, let heldFor):
            var out: [KizunaSync.ExploreAction] = heldFor > 0 ? [.server(change, heldFor: 0)] : []
            if case .upsert(let table, let pk, let columns, let hlc) = change {
                for member in columns.members where member.key != "owner_id" {
                    let fewer = JSONObject(columns.members.filter { $0.key != member.key })
                    out.append(.server(.upsert(table: table, pk: pk, columns: fewer, hlc: hlc), heldFor: heldFor))
                }
            }
            return out
        case .atomicWrites(let device, let mutations):
            // A run cut to fewer members, or to plain writes.
            var out: [KizunaSync.ExploreAction] = mutations.indices.map { index in
                var fewer = mutations
                fewer.remove(at: index)
                return fewer.count == 1 ? .write(device: device, fewer[0]) : .atomicWrites(device: device, fewer)
            }
            if mutations.count == 1 { out.append(.write(device: device, mutations[0])) }
            return out
        case .brokenAnswer(let device): return [.push(device: device, count: 1, atomic: false, answerLost: false)]
        case .failedPull(let device): return [.pull(device: device, limit: nil)]
        case .pull, .settlePull, .observe, .reap, .settlePush: return []
        }
    }
}

extension KizunaSync.ExploreAction {
    func moved(to device: Int) -> Self {
        switch self {
        case .write(_, let mutation): .write(device: device, mutation)
        case .push(_, let count, let atomic, let lost): .push(device: device, count: count, atomic: atomic, answerLost: lost)
        case .pull(_, let limit): .pull(device: device, limit: limit)
        case .settlePush: .settlePush(device: device)
        case .settlePull(_, let limit): .settlePull(device: device, limit: limit)
        case .atomicWrites(_, let mutations): .atomicWrites(device: device, mutations)
        case .brokenAnswer: .brokenAnswer(device: device)
        case .failedPull: .failedPull(device: device)
        case .server, .reap, .observe: self
        }
    }
}
