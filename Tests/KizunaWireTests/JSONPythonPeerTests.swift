import AccordTestSupport
import Foundation
import JSON
import Testing

/// Differential test against a real peer: CPython's `json` module (strict UTF-8, no NaN or
/// Infinity, no lone surrogates) decides accept/reject on the same bytes, and for accepted
/// integer-only documents without duplicate keys its `dumps(indent=2, sort_keys=True)` must
/// equal Accord's canonical rendering byte for byte.
@Suite("JSON parser against Python's json")
struct JSONPythonPeerTests {
    static let peer = #"""
        import json, sys, os
        def no_constants(name): raise ValueError(name)
        def check(value):
            if isinstance(value, str):
                if any(0xD800 <= ord(c) <= 0xDFFF for c in value): raise ValueError("surrogate")
            elif isinstance(value, list):
                for item in value: check(item)
            elif isinstance(value, dict):
                for k, v in value.items(): check(k); check(v)
        folder = sys.argv[1]
        out = []
        for name in sorted(os.listdir(folder)):
            raw = open(os.path.join(folder, name), "rb").read()
            try:
                pairs = []
                def keep_pairs(items):
                    pairs.extend(items)
                    return dict(items)
                value = json.loads(raw.decode("utf-8"), parse_constant=no_constants, object_pairs_hook=keep_pairs)
                check(value)
                for k, v in pairs: check(k); check(v)
            except Exception:
                out.append(name + " reject")
                continue
            text = json.dumps(value, indent=2, sort_keys=True, ensure_ascii=False) + "\n"
            out.append(name + " accept " + text.encode("utf-8").hex())
        print("\n".join(out))
        """#

    struct Generator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return state >> 33
        }
        mutating func below(_ n: Int) -> Int { Int(next() % UInt64(n)) }

        mutating func string() -> String {
            let pieces = ["a", "Z", "0", " ", "\"", "\\", "/", "\n", "\t", "\u{1}", "\u{7f}", "é", "ß", "日本", "😀", "\u{301}", "\u{2028}"]
            return (0..<below(6)).map { _ in pieces[below(pieces.count)] }.joined()
        }

        mutating func number() -> String {
            let choices = [
                "0", "7", "42", "2147483647", "9007199254740993", "123456789012345678901234567890", "-1", "1.5", "2e10", "-0.25E-3",
            ]
            return choices[below(choices.count)]
        }

        mutating func value(depth: Int) -> String {
            let roll = depth > 4 ? below(4) : below(7)
            switch roll {
            case 0: return ["null", "true", "false"][below(3)]
            case 1, 2: return number()
            case 3: return encode(string())
            case 4:
                return "[" + (0..<below(4)).map { _ in ws() + value(depth: depth + 1) + ws() }.joined(separator: ",") + "]"
            default:
                let keys = (0..<below(4)).map { _ in below(5) == 0 ? "k" : string() }
                return "{" + keys.map { ws() + encode($0) + ws() + ":" + ws() + value(depth: depth + 1) }.joined(separator: ",") + ws()
                    + "}"
            }
        }

        mutating func ws() -> String { ["", "", " ", "\n", "\t", "\r\n  "][below(6)] }

        mutating func encode(_ text: String) -> String {
            var out = "\""
            for scalar in text.unicodeScalars {
                switch scalar {
                case "\"": out += "\\\""
                case "\\": out += "\\\\"
                case "/": out += below(2) == 0 ? "/" : "\\/"
                case "\n": out += "\\n"
                case "\t": out += "\\t"
                default:
                    if scalar.value < 0x20 || below(8) == 0 {
                        if scalar.value > 0xFFFF {
                            let v = scalar.value - 0x10000
                            out += String(format: "\\u%04X\\u%04x", 0xD800 + (v >> 10), 0xDC00 + (v & 0x3FF))
                        } else {
                            out += String(format: "\\u%04x", scalar.value)
                        }
                    } else {
                        out.unicodeScalars.append(scalar)
                    }
                }
            }
            return out + "\""
        }

        mutating func mutate(_ bytes: [UInt8]) -> [UInt8] {
            var bytes = bytes
            let junk: [UInt8] = [0x22, 0x5C, 0x2C, 0x7B, 0x7D, 0x5B, 0x5D, 0x3A, 0x00, 0x0A, 0xFF, 0xC3, 0xED, 0xA0, 0x30, 0x2D, 0x65]
            for _ in 0...below(2) {
                guard !bytes.isEmpty else { break }
                let at = below(bytes.count)
                switch below(4) {
                case 0: bytes.remove(at: at)
                case 1: bytes.insert(junk[below(junk.count)], at: at)
                case 2: bytes[at] = junk[below(junk.count)]
                default: bytes = Array(bytes[..<at])
                }
            }
            return bytes
        }
    }

    @Test("accept/reject and canonical bytes agree with CPython on 1,500 generated documents")
    func agreesWithPython() throws {
        var generator = Generator(state: 0x5EED_0001)
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("accord-json-peer-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        var documents: [String: [UInt8]] = [:]
        for index in 0..<1500 {
            var bytes = Array(generator.value(depth: 0).utf8)
            if index % 3 == 2 { bytes = generator.mutate(bytes) }
            let name = String(format: "doc%05d", index)
            documents[name] = bytes
            try Data(bytes).write(to: folder.appendingPathComponent(name))
        }
        let process = ChildProcess()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", Self.peer, folder.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        var accepted = 0
        var rejected = 0
        var compared = 0
        for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: " ")
            let name = String(parts[0])
            let bytes = try #require(documents[name])
            let ours = try? JSONParser.parse(bytes)
            if parts[1] == "reject" {
                rejected += 1
                #expect(
                    ours == nil, "python rejects \(name) but Accord accepts: \(String(decoding: bytes, as: UTF8.self).debugDescription)")
                continue
            }
            accepted += 1
            let value = try #require(
                ours, "python accepts \(name) but Accord rejects: \(String(decoding: bytes, as: UTF8.self).debugDescription)")
            guard Self.comparable(value) else { continue }
            compared += 1
            let expected = String(parts[2])
            let rendered = CanonicalJSON.render(value).map { String(format: "%02x", $0) }.joined()
            #expect(rendered == expected, "canonical bytes differ for \(name)")
        }
        #expect(accepted > 300 && rejected > 200 && compared > 200, "accepted \(accepted), rejected \(rejected), compared \(compared)")
    }

    /// Integer-only documents without duplicate keys or "-0": the ones CPython re-renders exactly.
    static func comparable(_ value: JSONValue) -> Bool {
        switch value {
        case .number(let number): number.isInteger && number.literal != "-0"
        case .array(let array): array.allSatisfy(comparable)
        case .object(let object): object.firstDuplicateKey == nil && object.members.allSatisfy { comparable($0.value) }
        default: true
        }
    }
}
