internal import CCurl

/// The request header list of one `StreamingHandle`, laid out as libcurl's `curl_slist` in
/// memory the handle owns and reuses, so a transfer's headers cost no allocation once the
/// memory is large enough (`curl_slist_append` allocates a node and a copy of every line).
/// libcurl reads the list while the transfer runs and never frees or changes it.
struct HeaderList: ~Copyable {
    private var nodes: UnsafeMutablePointer<curl_slist>
    private var nodeCapacity: Int
    private var text: UnsafeMutablePointer<CChar>
    private var textCapacity: Int

    init() {
        nodeCapacity = 16
        nodes = .allocate(capacity: nodeCapacity)
        textCapacity = 1024
        text = .allocate(capacity: textCapacity)
    }

    deinit {
        nodes.deallocate()
        text.deallocate()
    }

    /// Lays the lines out and returns the list; the previous list is overwritten, so the
    /// caller must not be running a transfer with it.
    /// - Parameters:
    ///   - fields: `name: value` lines, in order.
    ///   - octets: bytes sent for a value instead of its UTF-8, by index in `fields`.
    ///   - bare: lines sent as they are (e.g. `Expect:` to suppress a libcurl default).
    /// - Returns: the head of the list, nil when it is empty.
    mutating func make(_ fields: [(name: String, value: String)], octets: [Int: [UInt8]] = [:], _ bare: [StaticString])
        -> UnsafeMutablePointer<curl_slist>?
    {
        let count = fields.count + bare.count
        guard count > 0 else { return nil }
        var length = 0
        for (index, (name, value)) in fields.enumerated() {
            length += name.utf8.count + 2 + (octets[index]?.count ?? value.utf8.count) + 1
        }
        for line in bare { length += line.utf8CodeUnitCount + 1 }
        if count > nodeCapacity {
            nodes.deallocate()
            nodeCapacity = max(count, nodeCapacity * 2)
            nodes = .allocate(capacity: nodeCapacity)
        }
        if length > textCapacity {
            text.deallocate()
            textCapacity = max(length, textCapacity * 2)
            text = .allocate(capacity: textCapacity)
        }
        var offset = 0
        var index = 0
        var start = 0
        let text = UnsafeMutableRawBufferPointer(start: self.text, count: textCapacity)
        func append(_ bytes: UnsafeRawBufferPointer) {
            if let source = bytes.baseAddress, let target = text.baseAddress {
                (target + offset).copyMemory(from: source, byteCount: bytes.count)
            }
            offset += bytes.count
        }
        func endLine() {
            text[offset] = 0
            offset += 1
            nodes[index] = curl_slist(data: self.text + start, next: index + 1 < count ? nodes + index + 1 : nil)
            index += 1
            start = offset
        }
        let separator: StaticString = ": "
        for (index, (name, value)) in fields.enumerated() {
            var name = name
            var value = value
            name.withUTF8 { append(UnsafeRawBufferPointer($0)) }
            append(UnsafeRawBufferPointer(start: separator.utf8Start, count: separator.utf8CodeUnitCount))
            if let bytes = octets[index] {
                // Control bytes become spaces, as in a response head: a NUL would end libcurl's C
                // string early, a CR or LF would split the field.
                bytes.withUnsafeBytes { append($0) }
                for position in (offset - bytes.count)..<offset where text[position] < 0x20 || text[position] == 0x7F {
                    text[position] = 0x20
                }
            } else {
                value.withUTF8 { append(UnsafeRawBufferPointer($0)) }
            }
            endLine()
        }
        for line in bare {
            append(UnsafeRawBufferPointer(start: line.utf8Start, count: line.utf8CodeUnitCount))
            endLine()
        }
        return nodes
    }
}

extension HeaderList {
    /// One node of a made list, read back as libcurl walks it (for tests).
    struct Line {
        let node: UnsafeMutablePointer<curl_slist>

        init?(_ node: UnsafeMutablePointer<curl_slist>?) {
            guard let node else { return nil }
            self.node = node
        }

        var text: String { node.pointee.data.map { String(cString: $0) } ?? "" }
        var next: Line? { Line(node.pointee.next) }
    }
}
