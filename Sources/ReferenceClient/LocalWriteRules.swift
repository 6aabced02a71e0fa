import Corpus
import KizunaWire

extension ClientStore {
    /// Refuses writes whose shape the local store cannot take (LOCAL_CONSTRAINT).
    static func validateShape(_ write: LocalWrite, keyColumns: [String]) throws(ClientError) {
        if write.pk.isEmpty { throw ClientError(.localConstraint, "the row key is empty") }
        if !write.transforms.isEmpty && write.op != .update {
            throw ClientError(.localConstraint, "transforms ride op update only")
        }
        for (column, _) in write.transforms where write.columns[column] != nil {
            throw ClientError(.localConstraint, "column \"\(column)\" appears in both columns and transforms")
        }
        switch write.op {
        case .insert:
            var texts: [String] = []
            for column in keyColumns {
                switch write.columns[column] {
                case .string(let text)?: texts.append(text)
                case .number(let number)? where number.isInteger: texts.append(number.literal)
                default: throw ClientError(.localConstraint, "key column \"\(column)\" is missing or not a string or integer")
                }
            }
            if texts.count == 1, texts[0] != write.pk {
                throw ClientError(.localConstraint, "key column \"\(keyColumns[0])\" spells \(texts[0]), not the key \(write.pk)")
            }
        case .update:
            for column in keyColumns where write.columns[column] != nil {
                throw ClientError(.localConstraint, "an update names key column \"\(column)\"; the key is immutable")
            }
        case .delete:
            break
        }
    }

    /// The row after a write is applied optimistically, or nil when the row is absent afterwards.
    static func apply(_ write: LocalWrite, to current: JSONObject?, shadowed: Bool) throws(ClientError) -> JSONObject? {
        switch write.op {
        case .insert:
            if current != nil { throw ClientError(.localConstraint, "a row with key \(write.pk) already exists in \(write.table)") }
            return write.columns
        case .delete:
            return nil
        case .update:
            // An update of an absent (or shadowed) row stays invisible: it never resurrects one.
            guard var row = current, !shadowed else { return nil }
            for member in write.columns.members { row[member.key] = member.value }
            for (column, transform) in write.transforms {
                if let value = transform.applied(to: row[column]) { row[column] = value }
            }
            return row
        }
    }
}
