import Foundation
import JSON
import Testing

@testable import Capture
@testable import Corpus

@Suite("Recording writer")
struct RecordingWriterTests {
    static func file() -> String { NSTemporaryDirectory() + "accord-writer-\(UUID().uuidString).jsonl" }

    @Test("appends from many threads, at every durability, are numbered in file order and read back by RecordingReader")
    func concurrentAppends() async throws {
        let path = Self.file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let header = RecordingHeader(tool: "accord test", startedAt: "2026-11-30T00:00:00Z", upstream: "http://u", redaction: [:])
        let writer = try RecordingWriter(path: path, header: header)
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<50 {
                group.addTask {
                    await withCheckedContinuation { continuation in
                        Thread.detachNewThread {
                            let exchange = RecordedExchange(number: 0, rpc: "http", request: .string("r\(index)"), response: .null)
                            #expect(writer.append(exchange, durability: [.queued, .written, .synced][index % 3]))
                            continuation.resume()
                        }
                    }
                }
            }
        }
        writer.close()
        #expect(!writer.append(RecordedExchange(number: 0, rpc: "http", request: .null, response: .null)))
        let (read, exchanges) = try RecorderHarness.read(try [UInt8](Data(contentsOf: URL(fileURLWithPath: path))))
        #expect(read == header)
        #expect(exchanges.map(\.number) == Array(1...50))
        #expect(Set(exchanges.map(\.request)) == Set((0..<50).map { JSONValue.string("r\($0)") }))
        #expect(writer.written == 50)
    }

    @Test("a torn last line after complete exchanges loses nothing complete")
    func tornTail() throws {
        let path = Self.file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let header = RecordingHeader(tool: "t", startedAt: "s", upstream: "u", redaction: [:])
        let writer = try RecordingWriter(path: path, header: header)
        writer.append(RecordedExchange(number: 0, rpc: "push", request: [:], response: [:]))
        writer.close()
        var bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        bytes += Array(#"{"exchange":2,"at_ms":1,"#.utf8)
        var reader = RecordingReader(file: path)
        var count = 0
        let body: (RecordingReader.Item) throws(CorpusError) -> Void = { if case .exchange = $0 { count += 1 } }
        try bytes.withUnsafeBufferPointer { buffer throws(CorpusError) in try reader.feed(buffer, body) }
        try reader.finish(body)
        #expect(count == 1)
        #expect(reader.tornLine == 3)
    }

    @Test("strings with quotes, backslashes, control bytes and non-ASCII text round-trip through a line")
    func escapes() throws {
        let path = Self.file()
        defer { try? FileManager.default.removeItem(atPath: path) }
        let writer = try RecordingWriter(path: path, header: RecordingHeader(tool: "t", startedAt: "s", upstream: "u", redaction: [:]))
        let text = "quote \" backslash \\ newline \n tab \t ctl \u{01}\u{1F} é 日本 end"
        let body: JSONValue = ["z": .string(text), "a": [.string(text), 1, nil, true]]
        writer.append(RecordedExchange(number: 0, rpc: "http", request: body, response: .string(text)))
        writer.close()
        let bytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: path)))
        let (_, exchanges) = try RecorderHarness.read(bytes)
        #expect(exchanges.first?.request == body)
        #expect(exchanges.first?.response == .string(text))
        let line = String(decoding: bytes, as: UTF8.self).split(separator: "\n")[1]
        #expect(line.contains(#"\u0001\u001f"#))
    }

    @Test(
        "the exchange prefix prints every number as Swift does, in the bytes it is given",
        arguments: [0, 7, 10, 99, 12_345, Int.max, -1, Int.min])
    func prefix(number: Int) {
        var buffer = [UInt8](repeating: 0xFF, count: RecordingWriter.prefixCapacity)
        let printed = buffer.withUnsafeMutableBytes { RecordingWriter.printPrefix(number, into: $0) }
        #expect(String(decoding: buffer[..<printed], as: UTF8.self) == "{\"exchange\":\(number),")
        #expect(buffer[printed...].allSatisfy { $0 == 0xFF })
    }
}
