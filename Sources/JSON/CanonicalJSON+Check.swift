import Foundation

/// One way a document's bytes depart from the canonical form.
public struct CanonicalViolation: Sendable, Equatable, CustomStringConvertible {
    /// The upstream rule broken: "C-1", "C-4", "C-5", "C-7" or "C-9".
    public let clause: String
    /// What is wrong.
    public let detail: String
    /// The byte offset of the first divergence, when the clause is about bytes.
    public let offset: Int?
    /// The JSON pointer of the value concerned, when known.
    public let pointer: JSONPointer?

    /// "C-7: …".
    public var description: String { "\(clause): \(detail)" }
}

extension CanonicalJSON {
    /// Every canonical-form problem of a document, in a stable order: BOM and CR (C-1),
    /// duplicate keys (C-9), numbers outside non-negative 31-bit integers (C-4; `increment.by`
    /// may be negative), non-NFC strings (C-5), and the first byte that differs from the
    /// canonical rendering (C-7).
    /// - Parameters:
    ///   - raw: the document's bytes as stored.
    ///   - value: the parsed document.
    /// - Returns: the violations, empty when the bytes are canonical.
    public static func violations(raw: [UInt8], value: JSONValue) -> [CanonicalViolation] {
        var found: [CanonicalViolation] = []
        if raw.starts(with: [0xEF, 0xBB, 0xBF]) {
            found.append(CanonicalViolation(clause: "C-1", detail: "byte-order mark present", offset: 0, pointer: nil))
        }
        if let cr = raw.firstIndex(of: 0x0D) {
            found.append(CanonicalViolation(clause: "C-1", detail: "carriage return (CRLF line ends)", offset: cr, pointer: nil))
        }
        scan(value, path: [], key: nil, into: &found)
        // Spans are recorded children first, so the first span holding the offset is the deepest.
        let rendered = renderWithSpans(value, spanDepth: 3)
        if rendered.bytes != raw {
            let limit = min(rendered.bytes.count, raw.count)
            var offset = limit
            for index in 0..<limit where rendered.bytes[index] != raw[index] {
                offset = index
                break
            }
            let pointer = rendered.spans.first(where: { $0.1.contains(offset) })?.0
            found.append(
                CanonicalViolation(
                    clause: "C-7",
                    detail:
                        "first divergent byte at offset \(offset) (found \(describe(raw, offset)), expected \(describe(rendered.bytes, offset)))",
                    offset: offset, pointer: pointer))
        }
        return found
    }

    private static func describe(_ bytes: [UInt8], _ offset: Int) -> String {
        offset < bytes.count ? "0x" + String(bytes[offset], radix: 16) : "end of input"
    }

    private static func scan(_ value: JSONValue, path: [String], key: String?, into found: inout [CanonicalViolation]) {
        switch value {
        case .object(let object):
            if let duplicate = object.firstDuplicateKey {
                found.append(
                    CanonicalViolation(
                        clause: "C-9", detail: "duplicate key \"\(duplicate)\"", offset: nil,
                        pointer: JSONPointer(tokens: path + [duplicate])))
            }
            for member in object.members { scan(member.value, path: path + [member.key], key: member.key, into: &found) }
        case .array(let array):
            for (index, element) in array.enumerated() { scan(element, path: path + [String(index)], key: nil, into: &found) }
        case .number(let number):
            if !isCanonicalNumber(number, key: key) {
                found.append(
                    CanonicalViolation(
                        clause: "C-4",
                        detail:
                            "JSON number \(number.literal) is not a non-negative integer below 2^31 (int64-class values ride as decimal strings)",
                        offset: nil, pointer: JSONPointer(tokens: path)))
            }
        case .string(let string):
            if string.utf8.contains(where: { $0 >= 0x80 }),
                string.precomposedStringWithCanonicalMapping.utf8.elementsEqual(string.utf8) == false
            {
                found.append(
                    CanonicalViolation(
                        clause: "C-5", detail: "string is not NFC-normalized", offset: nil, pointer: JSONPointer(tokens: path)))
            }
        case .null, .bool:
            break
        }
    }

    private static func isCanonicalNumber(_ number: JSONNumber, key: String?) -> Bool {
        guard number.isInteger, let integer = Int(number.literal) else { return false }
        if number.literal == "-0" { return false }
        if key == "by" { return integer > -(1 << 31) && integer < (1 << 31) }
        return integer >= 0 && integer < (1 << 31)
    }
}
