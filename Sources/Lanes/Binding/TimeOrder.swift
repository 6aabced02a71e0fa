import KizunaWire

/// Recorded → live times where a replay can keep only their order: a recorded service and the
/// server replaying its recording stamp different clocks at different grains (one `now()` per
/// transaction, one per statement, a logical step per exchange), so two recorded times may come
/// back as one and one recorded time as two. A pair breaks only by inverting the order against
/// a neighbour: recorded a < b with live(a) > live(b). Sorted by recorded time; each recorded
/// time keeps the range of live times answered for it.
struct TimeOrder: Sendable {
    struct Entry: Sendable {
        var golden: UTCTimestamp
        var low: UTCTimestamp
        var high: UTCTimestamp
        var origin: BindingOrigin
    }

    private(set) var entries: [Entry] = []

    /// Binds `golden` to `live` unless that inverts the order against a neighbour.
    mutating func bind(_ golden: UTCTimestamp, _ live: UTCTimestamp, origin: BindingOrigin) -> BindingTable<UTCTimestamp>.Outcome {
        let index = position(of: golden)
        let exists = index < entries.count && entries[index].golden == golden
        if index > 0, live < entries[index - 1].high {
            let neighbour = entries[index - 1]
            return .refused(.orderInverted(.init(golden: neighbour.golden, live: neighbour.high, origin: neighbour.origin)))
        }
        let next = exists ? index + 1 : index
        if next < entries.count, entries[next].low < live {
            let neighbour = entries[next]
            return .refused(.orderInverted(.init(golden: neighbour.golden, live: neighbour.low, origin: neighbour.origin)))
        }
        if exists {
            if entries[index].low <= live && live <= entries[index].high { return .known }
            entries[index].low = min(entries[index].low, live)
            entries[index].high = max(entries[index].high, live)
            return .learned
        }
        entries.insert(Entry(golden: golden, low: live, high: live, origin: origin), at: index)
        return .learned
    }

    /// The one live time a recorded time came back as, when it came back as one.
    func live(for golden: UTCTimestamp) -> (UTCTimestamp, BindingOrigin)? {
        let index = position(of: golden)
        guard index < entries.count, entries[index].golden == golden, entries[index].low == entries[index].high else { return nil }
        return (entries[index].low, entries[index].origin)
    }

    /// The first index whose recorded time is not before `golden`.
    private func position(of golden: UTCTimestamp) -> Int {
        entries.partitionPoint { $0.golden < golden }
    }
}
