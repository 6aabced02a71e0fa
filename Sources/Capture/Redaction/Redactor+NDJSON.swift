import PowerSyncWire

extension Redactor {
    /// An NDJSON answer as recorded (docs/recording.md, "NDJSON answers"): a JSON array of its
    /// lines, each line redacted and re-encoded as its JSON value (or as a string when it is not
    /// JSON), so that a reader finds line *k* at index *k − 1*. A body cut mid-line keeps its
    /// whole lines only; the cut is handed back for the exchange's `:accord-ndjson-cut` note.
    /// - Parameters:
    ///   - bytes: the body as received (or its recorded prefix).
    ///   - contentEncoding: its `Content-Encoding`; an encoded body is described, not split.
    ///   - complete: false when `bytes` is a prefix of the body (cut or kept at the size limit).
    /// - Returns: the compact JSON to record and the cut line, if any.
    public func encodedNDJSON(_ bytes: [UInt8], contentEncoding: String?, complete: Bool) -> (encoded: [UInt8], cut: NDJSONLines.Cut?) {
        if let contentEncoding, contentEncoding.lowercased() != "identity" {
            return (encodedBody(bytes, contentEncoding: contentEncoding, complete: complete).encoded, nil)
        }
        let split = NDJSONLines(bytes, ended: complete)
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(bytes.count + bytes.count / 8 + 16)
        for (index, range) in split.lines.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            out += encodedBody(Array(bytes[range]), contentEncoding: nil, complete: true).encoded
        }
        out.append(UInt8(ascii: "]"))
        return (out, split.cut)
    }

    /// The note an exchange carries under `:accord-ndjson-cut` for a cut line.
    /// - Parameters:
    ///   - cut: the cut line.
    /// - Returns: e.g. "cut mid-line: 3 whole lines kept, the 17 bytes of NDJSON line 4 dropped".
    public static func ndjsonCutNote(_ cut: NDJSONLines.Cut) -> String {
        let kept = cut.line - 1
        return
            "cut mid-line: \(kept) whole line\(kept == 1 ? "" : "s") kept, the \(cut.droppedBytes) bytes of NDJSON line \(cut.line) dropped"
    }
}
