import JSON
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
        case .increment:
            if let type, !type.isNumeric { return nil }
        case .arrayUnion(let values), .arrayRemove(let values):
            if let type, !type.isArray { return nil }
            if type == .textArray, !values.allSatisfy({ $0.stringValue != nil }) { return nil }
        }
        guard let result = transform.applied(to: current) else { return nil }
        if type == .integer, case .number(let number) = result, let value = Int64(number.literal),
            value < Int64(Int32.min) || value > Int64(Int32.max)
        {
            return nil
        }
        return result
    }
}
