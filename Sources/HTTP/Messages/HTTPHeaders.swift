/// An ordered list of header fields with case-insensitive name lookup.
public struct HTTPHeaders: Sendable, Hashable, Sequence, ExpressibleByDictionaryLiteral {
    /// One header field as received or to be sent.
    public struct Field: Sendable, Hashable {
        /// The name, as spelled on the wire.
        public var name: String
        /// The value, without surrounding whitespace.
        public var value: String
        /// The value's bytes as received when they are not UTF-8 (RFC 9110 §5.5: obs-text, which
        /// a recipient treats as opaque), so that a proxy sends them on as they came; `value` then
        /// reads each byte as its ISO-8859-1 character. Nil for a UTF-8 value.
        public var octets: [UInt8]?

        /// Makes a field.
        /// - Parameters:
        ///   - name: the name.
        ///   - value: the value.
        ///   - octets: the value's bytes when they are not UTF-8.
        public init(name: String, value: String, octets: [UInt8]? = nil) {
            self.name = name
            self.value = value
            self.octets = octets
        }

        /// A field received with the value `bytes`: decoded as UTF-8, or, when they are not UTF-8,
        /// read as ISO-8859-1 with the bytes kept (never U+FFFD in place of a byte).
        public init(name: String, received bytes: some Collection<UInt8>) {
            if let text = String(validating: bytes, as: UTF8.self) {
                self.init(name: name, value: text)
            } else {
                self.init(name: name, value: Self.latin1(bytes), octets: Array(bytes))
            }
        }

        /// The bytes sent for the value: `octets`, else the value's UTF-8.
        public var wireValue: [UInt8] { octets ?? Array(value.utf8) }

        /// Each byte read as the ISO-8859-1 character of its number.
        public static func latin1(_ bytes: some Collection<UInt8>) -> String {
            String(String.UnicodeScalarView(bytes.map { Unicode.Scalar($0) }))
        }
    }

    /// The fields in order.
    public private(set) var fields: [Field]

    /// Makes a header list.
    /// - Parameter fields: the fields in order.
    public init(_ fields: [Field] = []) { self.fields = fields }

    /// Makes an empty list with room for `capacity` fields, for a head built one field at a time.
    public init(capacity: Int) {
        fields = []
        fields.reserveCapacity(capacity)
    }

    /// Makes a header list from `name: value` pairs in order.
    /// - Parameter elements: the pairs.
    public init(dictionaryLiteral elements: (String, String)...) {
        fields = elements.map { Field(name: $0.0, value: $0.1) }
    }

    /// The first value of a header, compared case-insensitively.
    /// - Returns: the value, or nil when absent.
    public subscript(name: String) -> String? {
        fields.withUnsafeBufferPointer { fields in
            for index in fields.indices where Self.sameName(fields[index].name, name) { return fields[index].value }
            return nil
        }
    }

    /// Every value of a header, in order.
    /// - Returns: the values.
    public func values(for name: String) -> [String] {
        var values: [String] = []
        // Fields read in place: iterating the array would copy (and retain) every one.
        fields.withUnsafeBufferPointer { fields in
            for index in fields.indices where Self.sameName(fields[index].name, name) { values.append(fields[index].value) }
        }
        return values
    }

    /// The comma-separated tokens of every value of a header, lowercased and trimmed.
    /// - Returns: the tokens, empty elements dropped.
    public func tokens(for name: String) -> [String] {
        let values = values(for: name)
        if values.isEmpty { return [] }
        return values.flatMap { $0.split(separator: ",") }.map { HTTPHeaders.trimmed(Substring($0)).lowercased() }
            .filter { !$0.isEmpty }
    }

    /// Appends a field.
    public mutating func add(_ name: String, _ value: String) { fields.append(Field(name: name, value: value)) }

    /// Appends a field as it is, its `octets` included.
    public mutating func add(_ field: Field) { fields.append(field) }

    /// Replaces every field of a name with one field.
    public mutating func set(_ name: String, _ value: String) {
        remove(name)
        add(name, value)
    }

    /// Removes every field of a name.
    public mutating func remove(_ name: String) { fields.removeAll { Self.sameName($0.name, name) } }

    /// The number of fields.
    public var count: Int { fields.count }

    /// Iterates the fields in order.
    /// - Returns: the iterator.
    public func makeIterator() -> IndexingIterator<[Field]> { fields.makeIterator() }

    /// Compares header names as HTTP does: ASCII case-insensitively.
    /// - Parameters:
    ///   - lhs: a name.
    ///   - rhs: another name.
    /// - Returns: whether they name the same header.
    public static func sameName(_ lhs: String, _ rhs: String) -> Bool {
        let left = lhs.utf8
        let right = rhs.utf8
        guard left.count == right.count else { return false }
        // Native strings hand out their bytes: a plain loop, called for every header field.
        let contiguous = left.withContiguousStorageIfAvailable { leftBytes in
            right.withContiguousStorageIfAvailable { rightBytes in
                for index in 0..<leftBytes.count where lowerASCII(leftBytes[index]) != lowerASCII(rightBytes[index]) { return false }
                return true
            }
        }
        if let contiguous, let equal = contiguous { return equal }
        return zip(left, right).allSatisfy { lowerASCII($0) == lowerASCII($1) }
    }

    static func lowerASCII(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    /// A field value or list element without its optional whitespace (spaces and tabs, RFC 9110
    /// §5.6.3) at either end, on the bytes: no Foundation, no Unicode segmentation.
    /// - Parameter text: the value or element.
    /// - Returns: the trimmed text.
    public static func trimmed(_ text: Substring) -> String {
        var view = text.utf8[...]
        while let first = view.first, first == 0x20 || first == 0x09 { view = view.dropFirst() }
        while let last = view.last, last == 0x20 || last == 0x09 { view = view.dropLast() }
        return String(decoding: view, as: UTF8.self)
    }
}
