import Corpus
import KizunaWire

extension ClientStore {
    /// Refuses writes whose shape the local store cannot take (LOCAL_CONSTRAINT): an empty key, transforms outside an
    /// update or on a column also in `columns`, key columns in an update, or key columns of an insert that do not spell its key.
    static func validateShape(_ write: Mutation, keyColumns: [String]) throws(ClientError) {
        if write.pk.isEmpty { throw ClientError(.localConstraint, "the row key is empty") }
        if !write.transforms.isEmpty && write.op != .update {
            throw ClientError(.localConstraint, "transforms ride op update only")
        }
        for (column, _) in write.transforms where write.columns[column] != nil {
            throw ClientError(.localConstraint, "column \"\(column)\" appears in both columns and transforms")
        }
        switch write.op {
        case .insert:
            // Key columns may be left to the server (the corpus inserts carry none); present ones must spell the key.
            var texts: [String] = []
            for column in keyColumns {
                switch write.columns[column] {
                case nil: continue
                case .string(let text)?: texts.append(text)
                case .number(let number)? where number.isInteger: texts.append(number.literal)
                default: throw ClientError(.localConstraint, "key column \"\(column)\" is not a string or integer")
                }
            }
            if keyColumns.count == 1, let text = texts.first, text != write.pk {
                throw ClientError(.localConstraint, "key column \"\(keyColumns[0])\" spells \(text), not the key \(write.pk)")
            }
        case .update:
            for column in keyColumns where write.columns[column] != nil {
                throw ClientError(.localConstraint, "an update names key column \"\(column)\"; the key is immutable")
            }
        case .delete:
            break
        }
    }
}
