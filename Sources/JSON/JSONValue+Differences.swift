extension JSONValue {
    /// Every pointer at which this value and another differ: leaves that differ, members only
    /// one side has, array elements past the shorter array; depth first, keys in byte order.
    /// - Parameters:
    ///   - other: the value compared with.
    ///   - pointer: where the two sit.
    /// - Returns: the pointers, empty when the values are equal.
    public func differences(from other: JSONValue, at pointer: JSONPointer = .root) -> [JSONPointer] {
        var found: [JSONPointer] = []
        Self.walk(self, other, at: pointer, limit: .max, into: &found)
        return found
    }

    /// The first pointer at which this value and another differ, in the order of `differences(from:)`.
    /// - Parameters:
    ///   - other: the value compared with.
    ///   - pointer: where the two sit.
    /// - Returns: the pointer, or nil when the values are equal.
    public func firstDifference(from other: JSONValue, at pointer: JSONPointer = .root) -> JSONPointer? {
        var found: [JSONPointer] = []
        Self.walk(self, other, at: pointer, limit: 1, into: &found)
        return found.first
    }

    private static func walk(_ lhs: JSONValue, _ rhs: JSONValue, at pointer: JSONPointer, limit: Int, into found: inout [JSONPointer]) {
        guard found.count < limit else { return }
        switch (lhs, rhs) {
        case (.object(let left), .object(let right)):
            let keys = Set(left.keys).union(right.keys).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for key in keys where found.count < limit {
                guard let a = left[key], let b = right[key] else {
                    found.append(pointer.appending(key))
                    continue
                }
                walk(a, b, at: pointer.appending(key), limit: limit, into: &found)
            }
        case (.array(let left), .array(let right)):
            for index in 0..<max(left.count, right.count) where found.count < limit {
                guard index < left.count, index < right.count else {
                    found.append(pointer.appending(index))
                    continue
                }
                walk(left[index], right[index], at: pointer.appending(index), limit: limit, into: &found)
            }
        default:
            if CanonicalJSON.compact(lhs) != CanonicalJSON.compact(rhs) { found.append(pointer) }
        }
    }
}
