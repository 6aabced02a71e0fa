internal import CLibXML2

/// One-time libxml2 set-up shared by the JUnit writer and the schema validator.
enum LibXML2 {
    /// Evaluated once, on first use, before any other libxml2 call.
    static let initialized: Void = xmlInitParser()
}

/// Holds a report sink for libxml2's output callbacks, and what went wrong inside them.
final class SinkBox {
    /// Where the bytes go.
    let sink: ReportSink
    /// The first error the sink threw; later writes are refused.
    var error: (any Error)?
    /// When set, bytes are dropped instead of written (used when abandoning a document).
    var discarding = false

    init(sink: ReportSink) { self.sink = sink }

    /// Makes a libxml2 output buffer whose bytes go to `box`'s sink.
    ///
    /// The buffer keeps `box` alive through an `Unmanaged` retain that its close callback
    /// releases, so the sink outlives every byte libxml2 still holds.
    /// - Parameter box: the sink holder.
    /// - Returns: the buffer, or nil when libxml2 could not make one.
    static func outputBuffer(for box: SinkBox) -> xmlOutputBufferPtr? {
        let context = Unmanaged.passRetained(box).toOpaque()
        let buffer = xmlOutputBufferCreateIO(
            { context, bytes, length in
                guard let context else { return -1 }
                let box = Unmanaged<SinkBox>.fromOpaque(context).takeUnretainedValue()
                if box.discarding { return length }
                if box.error != nil { return -1 }
                do {
                    try box.sink.write(UnsafeRawBufferPointer(start: bytes, count: Int(length)))
                    return length
                } catch {
                    box.error = error
                    return -1
                }
            },
            { context in
                guard let context else { return -1 }
                Unmanaged<SinkBox>.fromOpaque(context).release()
                return 0
            },
            context, nil)
        if buffer == nil { Unmanaged<SinkBox>.fromOpaque(context).release() }
        return buffer
    }
}

/// Makes text safe for XML 1.0 and hands it to libxml2 as a NUL-terminated UTF-8 string.
///
/// XML 1.0 allows tab, line feed and carriage return but no other C0 control character, and
/// neither U+FFFE nor U+FFFF; no escape can represent them. Each such character is replaced by
/// the six characters `\uXXXX` (its code point in upper-case hex), so the document stays
/// well-formed and the reader can still tell which character it was. Everything else, `<&"`
/// included, is left for libxml2 to escape.
enum XMLText {
    /// Tells whether bytes of UTF-8 hold only characters XML 1.0 allows.
    /// - Parameter bytes: valid UTF-8.
    /// - Returns: true when nothing needs replacing.
    @inline(__always)
    static func isClean(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte < 0x20 {
                if byte != 0x09 && byte != 0x0A && byte != 0x0D { return false }
            } else if byte == 0xEF, index + 2 < count, bytes[index + 1] == 0xBF, bytes[index + 2] >= 0xBE {
                return false
            }
            index += 1
        }
        return true
    }

    /// Copies bytes of UTF-8, replacing characters XML 1.0 forbids, and appends a NUL.
    /// - Parameter bytes: valid UTF-8.
    /// - Returns: the cleaned bytes followed by a NUL terminator.
    static func sanitized(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var index = 0
        let count = bytes.count
        while index < count {
            let byte = bytes[index]
            if byte < 0x20 && byte != 0x09 && byte != 0x0A && byte != 0x0D {
                appendEscape(UInt16(byte), to: &out)
                index += 1
            } else if byte == 0xEF, index + 2 < count, bytes[index + 1] == 0xBF, bytes[index + 2] >= 0xBE {
                appendEscape(0xFF00 | UInt16(bytes[index + 2] & 0x3F) | 0xC0, to: &out)
                index += 3
            } else {
                out.append(byte)
                index += 1
            }
        }
        out.append(0)
        return out
    }

    /// Returns a string with the characters XML 1.0 forbids replaced.
    /// - Returns: the text, unchanged when it was already clean.
    static func sanitize(_ string: String) -> String {
        var copy = string
        return copy.withUTF8 { bytes in
            if isClean(bytes) { return string }
            var cleaned = sanitized(bytes)
            cleaned.removeLast()
            return String(decoding: cleaned, as: UTF8.self)
        }
    }

    /// Calls `body` with a NUL-terminated, XML-safe UTF-8 copy of `string`.
    ///
    /// Clean native strings are passed without copying.
    /// - Parameters:
    ///   - string: the text.
    ///   - body: the libxml2 call; its result is returned.
    /// - Returns: what `body` returns, or -1 when no pointer could be made.
    @inline(__always)
    static func withCString(_ string: String, _ body: (UnsafePointer<UInt8>) -> Int32) -> Int32 {
        let length = string.utf8.count
        return string.withCString { cString in
            cString.withMemoryRebound(to: UInt8.self, capacity: length + 1) { pointer in
                let bytes = UnsafeBufferPointer(start: pointer, count: length)
                if isClean(bytes) { return body(pointer) }
                return sanitized(bytes).withUnsafeBufferPointer { cleaned in
                    guard let base = cleaned.baseAddress else { return -1 }
                    return body(base)
                }
            }
        }
    }

    private static func appendEscape(_ codePoint: UInt16, to out: inout [UInt8]) {
        let hex: StaticString = "0123456789ABCDEF"
        out.append(UInt8(ascii: "\\"))
        out.append(UInt8(ascii: "u"))
        for shift in stride(from: 12, through: 0, by: -4) {
            out.append(hex.utf8Start[Int((codePoint >> UInt16(shift)) & 0xF)])
        }
    }
}
