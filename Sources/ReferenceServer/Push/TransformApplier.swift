import KizunaWire

/// Field transforms (D-field-transforms) evaluated against the current column value; a type
/// mismatch or an overflow is a CONSTRAINT rejection.
enum TransformApplier {
    /// The column's new value, or nil when the transform cannot apply (CONSTRAINT).
    /// - Parameters:
    ///   - transform: the transform.
    ///   - current: the current value (nil when the column was never written).
    ///   - type: the column's type, nil for an untyped table.
    static func apply(_ transform: Transform, to current: JSONValue?, type: ColumnType?) -> JSONValue? {
        switch transform {
        case .increment(let by):
            if let type, !type.isNumeric { return nil }
            guard let delta = ColumnType.integer(by) else { return nil }
            let base: Int64
            switch current {
            case nil, .null?: base = 0
            case .number(let number)?:
                guard number.isInteger, let value = Int64(number.literal) else { return nil }
                base = value
            default: return nil
            }
            let (sum, overflow) = base.addingReportingOverflow(delta)
            if overflow { return nil }
            if type == .integer, sum < Int64(Int32.min) || sum > Int64(Int32.max) { return nil }
            return .number(JSONNumber(literal: String(sum)))
        case .arrayUnion(let values), .arrayRemove(let values):
            if let type, !type.isArray { return nil }
            if type == .textArray, !values.allSatisfy({ $0.stringValue != nil }) { return nil }
            var array: [JSONValue]
            switch current {
            case nil, .null?: array = []
            case .array(let items)?: array = items
            default: return nil
            }
            if case .arrayUnion = transform {
                for value in values where !array.contains(value) { array.append(value) }
            } else {
                array.removeAll { values.contains($0) }
            }
            return .array(array)
        }
    }
}
