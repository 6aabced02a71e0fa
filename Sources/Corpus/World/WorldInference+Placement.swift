import JSON
import KizunaWire

extension WorldInference {
    /// The bucket value and row key of the filler row: a bucket no recorded client pulls.
    static let fillerBucket = "00000000-0000-4000-8000-00000000acc0"
    static let fillerKey = "00000000-0000-4000-8000-00000000acc1"

    /// Places every inferred change, checks the order a replay will write in, and names the
    /// exchanges whose answers the world cannot reproduce.
    mutating func place() -> RecordedWorld {
        let config = inference.config
        for (version, numbers) in answeredVersions where version < config.minSchemaVersion {
            for number in numbers where notInferable[number] == nil {
                notInferable[number] =
                    "the recorded service answered schema version \(version) here and raised its minimum to \(config.minSchemaVersion) later; a replay seeds the minimum in force at the end"
            }
        }
        guard let first = sent.first else { return RecordedWorld(server: config, notInferable: notInferable) }
        // A row a page left out that nothing wrote again was deleted before that page.
        for (key, page) in absent.sorted(by: { $0.value < $1.value }) {
            infer(
                .delete, of: key, before: page,
                reason: "\(Self.label(key)) was left out of exchange \(page)'s page, which covers it, and never shown again", early: true)
        }
        absent = [:]
        highWaters()
        for (seq, exchange) in writtenBefore {
            switch identified[seq]?.writer {
            case .world(let index)?: pending[index].before = min(pending[index].before, exchange)
            case .push(let number)? where number >= exchange:
                notInferable[exchange] =
                    notInferable[exchange]
                    ?? "the recorded page says more followed it, but what followed was written by exchange \(number), after it (exchanges overlapped on the recorded service)"
            default: break
            }
        }
        let bounds = SeqBounds(pinned: pinned, marks: marks)
        for index in pending.indices {
            guard let seq = pending[index].seq else { continue }
            pending[index].after = max(pending[index].after, bounds.after(seq))
            pending[index].before = min(pending[index].before, bounds.before(seq))
        }
        var gaps = [Int](repeating: 0, count: pending.count)
        // Changes with a recorded seq from the highest down: as late as allowed, never after a higher one.
        var ceiling = Int.max
        let numbered = pending.indices.compactMap { index in pending[index].seq.map { (index, $0) } }.sorted { $0.1 > $1.1 }
        for (index, seq) in numbered {
            let gap = min(pending[index].before, ceiling)
            gaps[index] = gap
            if gap <= pending[index].after {
                let shownBy = identified[seq]?.shownBy ?? pending[index].before
                notInferable[shownBy] =
                    notInferable[shownBy]
                    ?? "the recorded seq \(seq) must come after exchange \(pending[index].after) and before exchange \(gap): the recording's order of writes cannot be replayed in order (exchanges that overlapped on the recorded service)"
            }
            ceiling = gap
        }
        for index in pending.indices where pending[index].seq == nil {
            gaps[index] = pending[index].before
            if pending[index].early { gaps[index] = firstSent(after: pending[index].after) ?? gaps[index] }
        }
        unnumberedBeforeHighWaters(&gaps)
        var byGap: [Int: [Int]] = [:]
        for index in pending.indices { byGap[gaps[index], default: []].append(index) }
        for gap in byGap.keys {
            byGap[gap]?.sort { lhs, rhs in rank(lhs) < rank(rhs) }
        }
        verify(byGap)
        var history: [WorldChange] = []
        var changes: [Int: [WorldChange]] = [:]
        for (gap, indices) in byGap {
            let placed = indices.flatMap(emitted)
            if gap <= first { history = placed } else { changes[gap] = placed }
        }
        return RecordedWorld(server: config, history: history, changes: changes, notInferable: notInferable)
    }

    /// A change whose seq no answer showed, placed before a complete pull, came before the write
    /// of that pull's high-water (that write is the last before it): such a change placed after
    /// that write moves to the write's gap (first in it, by `rank`), or before the push that made it.
    private mutating func unnumberedBeforeHighWaters(_ gaps: inout [Int]) {
        var unnumbered: [Int: [Int]] = [:]
        for index in pending.indices where pending[index].seq == nil { unnumbered[gaps[index], default: []].append(index) }
        guard !unnumbered.isEmpty else { return }
        var keys = unnumbered.keys.sorted()
        for mark in marks.reversed() where mark.complete && mark.seq != .zero {
            let floor: Int
            switch identified[mark.seq]?.writer {
            case .world(let index)?: floor = gaps[index]
            case .push(let number)?: floor = number
            case nil: continue
            }
            guard floor < mark.exchange else { continue }
            // Keys in (floor, mark.exchange] move to floor.
            var low = 0
            var high = keys.count
            while low < high {
                let middle = (low + high) / 2
                if keys[middle] <= floor { low = middle + 1 } else { high = middle }
            }
            var moved: [Int] = []
            var end = low
            while end < keys.count && keys[end] <= mark.exchange {
                moved += unnumbered.removeValue(forKey: keys[end]) ?? []
                end += 1
            }
            guard !moved.isEmpty else { continue }
            keys.removeSubrange(low..<end)
            var kept: [Int] = []
            for index in moved {
                if pending[index].after < floor {
                    gaps[index] = floor
                    kept.append(index)
                } else {
                    notInferable[pending[index].before] =
                        notInferable[pending[index].before]
                        ?? "\(pending[index].change) must come after exchange \(pending[index].after) and before the write of the high-water of exchange \(mark.exchange): exchanges overlapped on the recorded service"
                }
            }
            if !kept.isEmpty {
                if unnumbered[floor] == nil {
                    var at = 0
                    while at < keys.count && keys[at] < floor { at += 1 }
                    keys.insert(floor, at: at)
                }
                unnumbered[floor, default: []] += kept
            }
        }
    }

    /// The order within one gap: changes whose seq no answer showed first (in the order they were
    /// inferred), then the numbered ones by seq, reaps last.
    private func rank(_ index: Int) -> (Int, SequenceNumber, Int) {
        let change = pending[index]
        if case .reap = change.change.operation { return (2, .zero, index) }
        guard let seq = change.seq else { return (0, .zero, index) }
        return (1, seq, index)
    }

    /// The changes one pending change becomes: a row made for the purpose, then its delete.
    private func emitted(_ index: Int) -> [WorldChange] {
        let change = pending[index].change
        guard let create = pending[index].create else { return [change] }
        return [WorldChange(.upsert(create), table: change.table, pk: change.pk, reason: "made for the purpose: " + change.reason), change]
    }

    /// Every complete pull's high-water is a write: the one an answer showed at that seq must be
    /// the last before the pull; where none did, a filler write to a row no recorded client pulls.
    private mutating func highWaters() {
        var fillers = Set<SequenceNumber>()
        for mark in marks where mark.complete && mark.seq != .zero {
            let lastPush = lastWriter(before: mark.exchange)
            switch identified[mark.seq]?.writer {
            case .world(let index)?:
                pending[index].after = max(pending[index].after, lastPush)
                pending[index].before = min(pending[index].before, mark.exchange)
            case .push:
                continue
            case nil:
                guard fillers.insert(mark.seq).inserted, let filler = fillerRow() else { continue }
                let index = infer(
                    Pending(
                        change: WorldChange(
                            .upsert(filler.columns), table: filler.table, pk: filler.pk,
                            reason:
                                "a write at seq \(mark.seq), the high-water of exchange \(mark.exchange), that no answer shows (another user's), as a row no recorded client pulls"
                        ),
                        seq: mark.seq, after: lastPush, before: mark.exchange))
                identified[mark.seq] = Identified(writer: .world(index), shownBy: mark.exchange)
            }
        }
    }

    /// Walks the replay's order of writes: recorded seqs must rise, and each complete pull's
    /// high-water must be the last write before it.
    private mutating func verify(_ byGap: [Int: [Int]]) {
        var pushSeqs: [Int: [SequenceNumber]] = [:]
        for (exchange, seq) in pinned { pushSeqs[exchange, default: []].append(seq) }
        var highWaterOf: [Int: SequenceNumber] = [:]
        for mark in marks where mark.complete { highWaterOf[mark.exchange] = mark.seq }
        let wrote = Set(writers)
        var last: Writer?
        var highest: SequenceNumber?
        func rise(_ seq: SequenceNumber, at number: Int) {
            if let highest, seq <= highest {
                let shownBy = identified[seq]?.shownBy ?? number
                notInferable[shownBy] =
                    notInferable[shownBy]
                    ?? "the recorded seq \(seq) was written before seq \(highest) in the order a replay writes: exchanges overlapped on the recorded service"
            }
            highest = max(highest ?? seq, seq)
        }
        for number in sent {
            for index in byGap[number] ?? [] {
                if case .reap = pending[index].change.operation { continue }
                if let seq = pending[index].seq { rise(seq, at: number) }
                last = .world(index)
            }
            if let highWater = highWaterOf[number], highWater != .zero, let writer = identified[highWater]?.writer, writer != last {
                notInferable[number] =
                    notInferable[number]
                    ?? "the recorded high-water \(highWater) was written before a later write in the order a replay writes (exchanges overlapped on the recorded service, or a write the answers cannot place)"
            }
            if wrote.contains(number) {
                for seq in (pushSeqs[number] ?? []).sorted() { rise(seq, at: number) }
                last = .push(number)
            }
        }
    }

    /// The first exchange a replay sends after `number`.
    func firstSent(after number: Int) -> Int? {
        var low = 0
        var high = sent.count
        while low < high {
            let middle = (low + high) / 2
            if sent[middle] <= number { low = middle + 1 } else { high = middle }
        }
        return low < sent.count ? sent[low] : nil
    }

    /// The last push exchange before `number` that wrote something, or 0.
    func lastWriter(before number: Int) -> Int {
        var low = 0
        var high = writers.count
        while low < high {
            let middle = (low + high) / 2
            if writers[middle] < number { low = middle + 1 } else { high = middle }
        }
        return low == 0 ? 0 : writers[low - 1]
    }

    /// The row that filler writes go to: in a table a row was seen of, shaped like it, in a bucket
    /// and with a key no recorded client uses.
    func fillerRow() -> (table: String, pk: String, columns: JSONObject)? {
        let tables = inference.config.tables
        guard let table = tables.first(where: { templates[$0.name] != nil && keyColumns(of: $0.name).count == 1 }) ?? tables.first else {
            return nil
        }
        let template = templates[table.name] ?? JSONObject()
        var bucket: JSONValue = .string(Self.fillerBucket)
        if case .number? = template[table.bucketColumn] { bucket = .number(JSONNumber(literal: "900719925474092")) }
        var pk = Self.fillerKey
        if case .number? = template[keyColumns(of: table.name)[0]] { pk = "900719925474091" }
        let columns = purposeRow(RowKey(table: table.name, pk: pk), bucket: bucket)
        return (table.name, pk, columns)
    }
}

/// The recorded seqs an inferred change's place depends on: push writes the answers showed, and
/// pull cursors (a complete page's high-water: every write at or below it came before the pull,
/// every one above it after; a continuation's position: every write at or below it came before).
struct SeqBounds {
    private var pushes: [(seq: SequenceNumber, exchange: Int)]
    private var pushMaxBelow: [Int]
    private var pushMinAbove: [Int]
    private var completes: [(seq: SequenceNumber, exchange: Int)]
    private var completeMaxBelow: [Int]
    private var all: [(seq: SequenceNumber, exchange: Int)]
    private var allMinAbove: [Int]

    init(pinned: [(exchange: Int, seq: SequenceNumber)], marks: [WorldInference.Mark]) {
        pushes = pinned.map { ($0.seq, $0.exchange) }.sorted { $0.seq < $1.seq }
        completes = marks.filter(\.complete).map { ($0.seq, $0.exchange) }.sorted { $0.seq < $1.seq }
        all = marks.map { ($0.seq, $0.exchange) }.sorted { $0.seq < $1.seq }
        pushMaxBelow = Self.runningMax(pushes.map(\.exchange))
        pushMinAbove = Self.runningMinFromEnd(pushes.map(\.exchange))
        completeMaxBelow = Self.runningMax(completes.map(\.exchange))
        allMinAbove = Self.runningMinFromEnd(all.map(\.exchange))
    }

    /// The latest exchange a write at `seq` must follow.
    func after(_ seq: SequenceNumber) -> Int {
        let push = Self.count(below: seq, in: pushes)
        let complete = Self.count(below: seq, in: completes)
        return max(push == 0 ? 0 : pushMaxBelow[push - 1], complete == 0 ? 0 : completeMaxBelow[complete - 1])
    }

    /// The earliest exchange a write at `seq` must precede.
    func before(_ seq: SequenceNumber) -> Int {
        let push = Self.count(below: seq, in: pushes, orEqual: true)
        let mark = Self.count(below: seq, in: all)
        return min(push < pushes.count ? pushMinAbove[push] : Int.max, mark < all.count ? allMinAbove[mark] : Int.max)
    }

    private static func count(below seq: SequenceNumber, in sorted: [(seq: SequenceNumber, exchange: Int)], orEqual: Bool = false) -> Int {
        var low = 0
        var high = sorted.count
        while low < high {
            let middle = (low + high) / 2
            if sorted[middle].seq < seq || (orEqual && sorted[middle].seq == seq) { low = middle + 1 } else { high = middle }
        }
        return low
    }

    private static func runningMax(_ values: [Int]) -> [Int] {
        var result: [Int] = []
        var best = Int.min
        for value in values {
            best = max(best, value)
            result.append(best)
        }
        return result
    }

    private static func runningMinFromEnd(_ values: [Int]) -> [Int] {
        var result = [Int](repeating: Int.max, count: values.count)
        var best = Int.max
        for index in values.indices.reversed() {
            best = min(best, values[index])
            result[index] = best
        }
        return result
    }
}
