extension JSONValue {
    /// A copy with the value at `pointer` replaced, or removed when `newValue` is nil (an array
    /// element is removed, an object member dropped). A missing object member is added (with
    /// empty objects along the way); an array token `-` or one past the end appends.
    /// - Parameters:
    ///   - pointer: where to edit.
    ///   - newValue: the new value, or nil to remove.
    /// - Returns: the edited copy; unchanged when a parent along the pointer is missing.
    public func replacing(at pointer: JSONPointer, with newValue: JSONValue?) -> JSONValue {
        edit(pointer.tokens[...], newValue)
    }

    private func edit(_ tokens: ArraySlice<String>, _ newValue: JSONValue?) -> JSONValue {
        guard let token = tokens.first else { return newValue ?? .null }
        let rest = tokens.dropFirst()
        switch self {
        case .object(var object):
            if rest.isEmpty {
                object[token] = newValue
            } else {
                object[token] = (object[token] ?? .object(JSONObject())).edit(rest, newValue)
            }
            return .object(object)
        case .array(var array):
            let position = token == "-" ? array.count : (JSONPointer.isArrayIndex(token) ? Int(token) : nil)
            guard let index = position, index <= array.count else { return self }
            if rest.isEmpty {
                if let newValue {
                    if index == array.count { array.append(newValue) } else { array[index] = newValue }
                } else if index < array.count {
                    array.remove(at: index)
                }
            } else if index < array.count {
                array[index] = array[index].edit(rest, newValue)
            }
            return .array(array)
        default:
            return self
        }
    }
}
