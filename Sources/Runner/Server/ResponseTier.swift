import KizunaWire

/// How close a live response is to its golden one (upstream's result tiers).
public enum ResponseTier: String, Sendable, Hashable, Comparable {
    /// Canonical bytes equal.
    case pass
    /// Equal once the server-made values seq, cursor, winner_seq and deleted_at are masked.
    case semantic
    /// Different even after masking.
    case diverged

    private var rank: Int {
        switch self {
        case .pass: 0
        case .semantic: 1
        case .diverged: 2
        }
    }

    /// Orders tiers from best (pass) to worst (diverged).
    /// - Parameters:
    ///   - lhs: one tier.
    ///   - rhs: another.
    /// - Returns: whether `lhs` is the better tier.
    public static func < (lhs: ResponseTier, rhs: ResponseTier) -> Bool { lhs.rank < rhs.rank }

    /// The keys whose values a server makes up and that the semantic tier masks.
    public static let maskedKeys: Set<String> = ["seq", "cursor", "winner_seq", "deleted_at"]

    /// Compares a live response with its golden one.
    /// - Parameters:
    ///   - actual: the live body.
    ///   - golden: the golden body.
    /// - Returns: the tier, and for `.diverged` the first pointer where the masked bodies differ.
    public static func compare(_ actual: JSONValue, golden: JSONValue) -> (ResponseTier, JSONPointer?) {
        if CanonicalJSON.render(actual) == CanonicalJSON.render(golden) { return (.pass, nil) }
        let maskedActual = mask(actual)
        let maskedGolden = mask(golden)
        if CanonicalJSON.render(maskedActual) == CanonicalJSON.render(maskedGolden) { return (.semantic, nil) }
        return (.diverged, firstDifference(maskedActual, maskedGolden, at: .root))
    }

    /// Keys whose values are user data, where a column named like a masked key stays unmasked.
    static let dataKeys: Set<String> = ["row", "server_row", "loser_value", "columns"]

    /// The value with every masked key's value replaced by a placeholder, outside user data.
    /// - Parameter value: the value.
    /// - Returns: the masked value.
    public static func mask(_ value: JSONValue) -> JSONValue {
        switch value {
        case .object(let object):
            var members: [JSONObject.Member] = []
            for member in object.members {
                let masked: JSONValue =
                    dataKeys.contains(member.key) ? member.value : maskedKeys.contains(member.key) ? "<masked>" : mask(member.value)
                members.append(JSONObject.Member(key: member.key, value: masked))
            }
            return .object(JSONObject(members))
        case .array(let array):
            return .array(array.map(mask))
        default:
            return value
        }
    }

    /// The first pointer at which two values differ, depth first.
    /// - Parameters:
    ///   - lhs: one value.
    ///   - rhs: the other.
    ///   - pointer: where they sit.
    /// - Returns: the pointer, or nil when they are equal.
    public static func firstDifference(_ lhs: JSONValue, _ rhs: JSONValue, at pointer: JSONPointer) -> JSONPointer? {
        switch (lhs, rhs) {
        case (.object(let left), .object(let right)):
            let keys = Set(left.keys).union(right.keys).sorted { $0.utf8.lexicographicallyPrecedes($1.utf8) }
            for key in keys {
                guard let a = left[key], let b = right[key] else { return pointer.appending(key) }
                if let found = firstDifference(a, b, at: pointer.appending(key)) { return found }
            }
            return nil
        case (.array(let left), .array(let right)):
            for index in 0..<max(left.count, right.count) {
                guard index < left.count, index < right.count else { return pointer.appending(index) }
                if let found = firstDifference(left[index], right[index], at: pointer.appending(index)) { return found }
            }
            return nil
        default:
            return CanonicalJSON.compact(lhs) == CanonicalJSON.compact(rhs) ? nil : pointer
        }
    }
}
