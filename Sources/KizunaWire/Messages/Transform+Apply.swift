import JSON

extension Transform {
    /// The column's value after this transform, as the protocol defines it (D-field-transforms):
    /// increment adds `by` to an integer (absent or null counts as 0), arrayUnion appends the
    /// missing values in order, arrayRemove drops every listed value. Servers add their column
    /// type checks on top; clients use it for the optimistic local value.
    /// - Parameter current: the current value; nil when the column was never written.
    /// - Returns: the new value, or nil when the transform cannot apply (wrong type, overflow).
    public func applied(to current: JSONValue?) -> JSONValue? {
        switch self {
        case .increment(let by):
            guard let delta = Self.integer(by) else { return nil }
            let base: Int64
            switch current {
            case nil, .null?: base = 0
            case .number(let number)?:
                guard number.isInteger, let value = Int64(number.literal) else { return nil }
                base = value
            default: return nil
            }
            let (sum, overflow) = base.addingReportingOverflow(delta)
            return overflow ? nil : .number(JSONNumber(literal: String(sum)))
        case .arrayUnion(let values), .arrayRemove(let values):
            var array: [JSONValue]
            switch current {
            case nil, .null?: array = []
            case .array(let items)?: array = items
            default: return nil
            }
            if case .arrayUnion = self {
                for value in values where !array.contains(value) { array.append(value) }
            } else {
                array.removeAll { values.contains($0) }
            }
            return .array(array)
        }
    }

    /// An increment amount: a JSON integer, or a decimal string past 2^31, that fits `Int64`.
    /// - Returns: the amount, or nil.
    public static func integer(_ value: JSONValue) -> Int64? {
        switch value {
        case .number(let number) where number.isInteger: Int64(number.literal)
        case .string(let text):
            SequenceNumber.isCanonical((text.hasPrefix("-") ? text.dropFirst() : Substring(text)).utf8) ? Int64(text) : nil
        default: nil
        }
    }
}
