import Dispatch
import JSON
import Synchronization

/// Bodies as recorded: JSON re-encoded compactly with its secrets replaced in one pass, other
/// text redacted as a string, and what cannot be recorded as text described instead.
extension Redactor: JSONRewriteRules {
    /// A body as recorded, already encoded as the JSON of the recording's `request` or `response`.
    /// - Parameters:
    ///   - bytes: the body as sent.
    ///   - contentEncoding: its `Content-Encoding`, if any; an encoded body is not recorded.
    ///   - complete: false when `bytes` is a prefix of the body: it is kept as text, without the
    ///     token-shaped run it may end in (`Redactor.safePrefix(_:)`).
    ///   - key: a top-level member whose string value to hand back (e.g. `client_id`).
    /// - Returns: the compact JSON to record, and the string found under `key` before redaction.
    public func encodedBody(_ bytes: [UInt8], contentEncoding: String?, complete: Bool, capturing key: String? = nil)
        -> (encoded: [UInt8], captured: String?)
    {
        if bytes.isEmpty { return (Array("null".utf8), nil) }
        var out: [UInt8] = []
        if let contentEncoding, contentEncoding.lowercased() != "identity" {
            CanonicalJSON.appendString("<\(bytes.count) bytes, content-encoding \(contentEncoding), not recorded>", to: &out)
            return (out, nil)
        }
        return bytes.withUnsafeBufferPointer { whole in
            // A body cut at the limit keeps no part of a secret its cut may have split.
            let buffer = complete ? whole : UnsafeBufferPointer(rebasing: whole[..<Self.safePrefix(whole)])
            out.reserveCapacity(bytes.count + bytes.count / 8 + 64)
            if complete {
                // A first pass hands out no placeholder: a body that turns out not to be JSON
                // must not have used up numbers its text redaction never prints. Most bodies
                // hold no secret and are done in that one pass.
                let probe = RedactionProbe(redactor: self)
                let (valid, captured) = JSONRewriter.rewrite(buffer, into: &out, rules: probe, capturing: key)
                if valid && !probe.found { return (out, captured) }
                if valid {
                    out.removeAll(keepingCapacity: true)
                    if JSONRewriter.rewrite(buffer, into: &out, rules: self).valid { return (out, captured) }
                }
            }
            guard Self.isASCII(buffer) || String(validating: buffer, as: UTF8.self) != nil else {
                CanonicalJSON.appendString("<\(bytes.count) bytes, not UTF-8, not recorded>", to: &out)
                return (out, nil)
            }
            if buffer.count >= Self.parallelEscapeThreshold {
                return (escapedWhileRedacting(buffer), nil)
            }
            if let redacted = rewrite(string: buffer) {
                redacted.withUnsafeBufferPointer { CanonicalJSON.appendString(utf8: $0, to: &out) }
            } else {
                CanonicalJSON.appendString(utf8: buffer, to: &out)
            }
            return (out, nil)
        }
    }

    /// Text from this size on is escaped on another thread while it is searched for secrets.
    static var parallelEscapeThreshold: Int { 256 * 1024 }

    /// Large text as a JSON string: escaped on another thread while this one searches it for
    /// secrets, the escaped copy kept when nothing needs replacing (as is usual), so a large
    /// streamed body costs the longer of the two, not their sum, before its client's last bytes.
    /// - Parameter buffer: the text, UTF-8 (checked by the caller).
    /// - Returns: the JSON string of the text, redacted.
    func escapedWhileRedacting(_ buffer: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let escaped = EscapedText()
        let text = BorrowedText(bytes: buffer)
        let group = DispatchGroup()
        DispatchQueue.global().async(group: group) {
            let bytes = CanonicalJSON.encodedString(utf8: text.bytes)
            escaped.bytes.withLock { $0 = bytes }
        }
        let redacted = rewrite(string: buffer)
        // The other thread reads `buffer`: it must be done before this call returns.
        group.wait()
        guard let redacted else { return escaped.bytes.withLock { $0 } }
        var out: [UInt8] = []
        redacted.withUnsafeBufferPointer { CanonicalJSON.appendString(utf8: $0, to: &out) }
        return out
    }

    /// Whether every byte is ASCII, eight at a time.
    static func isASCII(_ buffer: UnsafeBufferPointer<UInt8>) -> Bool {
        guard let base = buffer.baseAddress else { return true }
        let raw = UnsafeRawPointer(base)
        var offset = 0
        while offset + 8 <= buffer.count {
            if raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self) & 0x8080_8080_8080_8080 != 0 { return false }
            offset += 8
        }
        while offset < buffer.count {
            if buffer[offset] >= 0x80 { return false }
            offset += 1
        }
        return true
    }

    /// Kept names are copied, secret names replaced whole, everything else rewritten.
    /// - Parameter key: the member's key.
    /// - Returns: its treatment.
    public func treatment(ofMember key: UnsafeBufferPointer<UInt8>) -> JSONMemberTreatment {
        if policy.isKept(utf8: key) { return .copy }
        return policy.isSecret(utf8: key) ? .secret : .rewrite
    }

    /// A string with its JWT-shaped tokens and secret-named pairs replaced, as `text(_:)` does.
    /// - Parameter string: the string's UTF-8 bytes.
    /// - Returns: the redacted bytes, or nil when nothing was replaced.
    public func rewrite(string: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        guard Self.mayHoldSecret(bytes: string) else { return nil }
        return text(utf8: string)
    }
}

/// The rules of a redactor that change nothing and hand out no placeholder, but note whether
/// the real rules would have changed anything.
final class RedactionProbe: JSONRewriteRules {
    let redactor: Redactor
    private(set) var found = false

    init(redactor: Redactor) { self.redactor = redactor }

    func treatment(ofMember key: UnsafeBufferPointer<UInt8>) -> JSONMemberTreatment { redactor.treatment(ofMember: key) }

    func rewrite(string: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        if !found && redactor.textNeedsRedaction(utf8: string) { found = true }
        return nil
    }

    func secret(_ material: String) -> String {
        // As `Redactor.secret(_:)`: an empty value or a placeholder stays as it is.
        if !material.isEmpty && !Redactor.isPlaceholder(material) { found = true }
        return material
    }
}

/// The escaped copy of a large text, handed back from the thread that made it.
private final class EscapedText: Sendable {
    let bytes = Mutex<[UInt8]>([])
}

/// Text lent to the escaping thread; the lender waits for that thread before the bytes go.
private struct BorrowedText: @unchecked Sendable {
    let bytes: UnsafeBufferPointer<UInt8>
}
