extension Array {
    /// The first index whose element is not `isBefore` (a lower bound by binary search), for an
    /// array sorted so that every such element comes first: how the binding tables find a golden value.
    func partitionPoint(_ isBefore: (Element) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if isBefore(self[middle]) { low = middle + 1 } else { high = middle }
        }
        return low
    }
}
