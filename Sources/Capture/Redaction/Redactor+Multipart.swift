import Glibc

/// `multipart/form-data` bodies (a browser's `FormData`, file uploads): a part's name is in its
/// `Content-Disposition: form-data; name="password"` line and its value on the lines after the
/// blank line, up to the next boundary, where no `name=value` or `"name": value` search finds it.
extension Redactor {
    /// The values of secret-named parts replaced, or nil when the text has none.
    /// - Returns: the redacted bytes, nil when unchanged.
    func replacingFormParts(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        let edits = formPartEdits(bytes)
        guard !edits.isEmpty else { return nil }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var copied = 0
        for range in edits where range.lowerBound >= copied {
            out.append(contentsOf: bytes[copied..<range.lowerBound])
            out.append(contentsOf: secret(String(decoding: bytes[range], as: UTF8.self)).utf8)
            copied = range.upperBound
        }
        out.append(contentsOf: bytes[copied...])
        return out
    }

    /// The value ranges of secret-named parts, in text order.
    func formPartEdits(_ bytes: UnsafeBufferPointer<UInt8>) -> [Range<Int>] {
        var edits: [Range<Int>] = []
        var index = 0
        while let line = Self.find(Self.disposition, in: bytes, from: index) {
            let lineEnd = Self.find([0x0A], in: bytes, from: line) ?? bytes.count
            index = lineEnd
            guard let open = Self.find(Self.nameOpen, in: bytes, from: line), open < lineEnd else { continue }
            let nameStart = open + Self.nameOpen.count
            guard let close = Self.find([0x22], in: bytes, from: nameStart), close < lineEnd,
                policy.isSecret(utf8: UnsafeBufferPointer(rebasing: bytes[nameStart..<close]))
            else { continue }
            // The value starts after the part's head, at its blank line, and ends at the CRLF (or
            // LF) before the next boundary line, or at the end of a cut body.
            guard let blank = Self.find([0x0A, 0x0D, 0x0A], in: bytes, from: lineEnd) ?? Self.find([0x0A, 0x0A], in: bytes, from: lineEnd)
            else { continue }
            let valueStart = bytes[blank + 1] == 0x0D ? blank + 3 : blank + 2
            var valueEnd = Self.find([0x0A, 0x2D, 0x2D], in: bytes, from: valueStart) ?? bytes.count
            if valueEnd > valueStart, valueEnd < bytes.count, bytes[valueEnd - 1] == 0x0D { valueEnd -= 1 }
            if valueEnd > valueStart { edits.append(valueStart..<valueEnd) }
            index = max(index, valueEnd)
        }
        return edits
    }

    /// Whether text could hold a form part: it says `form-data` (found with memchr from one
    /// `-` to the next, a rare byte in most bodies).
    static func mayHoldFormParts(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = bytes.baseAddress, bytes.count >= 9 else { return false }
        var index = 4
        while index + 5 <= bytes.count, let found = memchr(base + index, 0x2D, bytes.count - index - 4) {
            let dash = UnsafeRawPointer(found) - UnsafeRawPointer(base)
            if bytes[(dash - 4)..<(dash + 5)].elementsEqual("form-data".utf8) { return true }
            index = dash + 1
        }
        return false
    }

    private static let disposition = Array("content-disposition:".utf8)
    private static let nameOpen = Array(" name=\"".utf8)

    /// The first index at or after `from` where `needle` starts, ASCII case folded.
    static func find(_ needle: [UInt8], in bytes: UnsafeBufferPointer<UInt8>, from: Int) -> Int? {
        guard let first = needle.first, from < bytes.count else { return nil }
        var index = from
        while index + needle.count <= bytes.count {
            if bytes[index] | 0x20 == first | 0x20 {
                var offset = 1
                while offset < needle.count, bytes[index + offset] | 0x20 == needle[offset] | 0x20 { offset += 1 }
                if offset == needle.count { return index }
            }
            index += 1
        }
        return nil
    }
}
