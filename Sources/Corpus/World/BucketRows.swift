import KizunaWire

/// The live rows of one bucket value of a table, as the world model holds them: those an answer
/// showed at a recorded seq, ordered by it, and those written since at a seq no answer showed. A
/// page covering the seqs (from, to] of the bucket is checked against the rows in that range
/// alone (`WorldInference.leftOut`), not against every row the bucket ever had.
struct BucketRows: Sendable {
    private var numbered: [(seq: SequenceNumber, key: WorldInference.RowKey)] = []
    /// Rows written since an answer last showed them.
    private(set) var unnumbered = Set<WorldInference.RowKey>()

    var isEmpty: Bool { numbered.isEmpty && unnumbered.isEmpty }

    mutating func insert(_ key: WorldInference.RowKey, at seq: SequenceNumber?) {
        guard let seq else {
            unnumbered.insert(key)
            return
        }
        let index = position(of: seq)
        numbered.insert((seq, key), at: index)
    }

    mutating func remove(_ key: WorldInference.RowKey, at seq: SequenceNumber?) {
        guard let seq else {
            unnumbered.remove(key)
            return
        }
        var index = position(of: seq)
        while index < numbered.count && numbered[index].seq == seq {
            if numbered[index].key == key {
                numbered.remove(at: index)
                return
            }
            index += 1
        }
    }

    /// The rows shown at a seq in (from, to].
    func numbered(after from: SequenceNumber, upTo to: SequenceNumber) -> ArraySlice<(seq: SequenceNumber, key: WorldInference.RowKey)> {
        var start = position(of: from)
        while start < numbered.count && numbered[start].seq == from { start += 1 }
        var end = start
        while end < numbered.count && numbered[end].seq <= to { end += 1 }
        return numbered[start..<end]
    }

    /// The first index whose seq is not below `seq`.
    private func position(of seq: SequenceNumber) -> Int {
        var low = 0
        var high = numbered.count
        while low < high {
            let middle = (low + high) / 2
            if numbered[middle].seq < seq { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
